// Small fixed-size copies (llvm.memcpy / memmove of 1, 2, 4, 8 or 16 bytes) made plain loads and stores
// before any check sees the kernel. Clang turns a struct or vector assignment (`float4 b = *p; *q = b;`)
// into such a copy; as a copy its written value is unknown to the race check, so 128 threads storing the
// same float4 were a write-after-write race (TileLang's own let test), and a copy's write was reported as
// a "read". As a load and a store every family sees what it sees of any assignment.
#pragma once

namespace llvm {
class Module;
}

namespace td {

// Every non-volatile memcpy/memmove whose length is a constant 1, 2, 4, 8 or 16 becomes a load of that
// many bytes (an integer, or <4 x i32> for 16) and a store of it, with the copy's alignments and place.
void splitSmallCopies(llvm::Module& m);

}  // namespace td
