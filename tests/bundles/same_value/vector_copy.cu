// A 16-byte assignment every thread makes, as TileLang's let test writes it (`b = A[0, 0:4]; A[0, 4:8] = b`
// under 128 threads): clang turns the float4 (or struct) assignment into a 16-byte copy. Every thread stores
// the same bytes: benign. The twin's first lane differs per thread: a race, reported as two writes.
struct Quad { float x, y, z, w; };

extern "C" __global__ void vector_copy(float* A) {
  float4 b = *(float4*)(A + 0);
  *(float4*)(A + 4) = b;
}

extern "C" __global__ void vector_copy_different_value(float* A) {
  Quad q = {A[0] + threadIdx.x, A[1], A[2], A[3]};
  *(Quad*)(A + 4) = q;
}
