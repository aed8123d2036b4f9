; bounds: an access of a shared array at a constant index is checked like any other (the pass proves nothing
; away), and a buffer read and written through argument 0 is checked at each access, against argument 0.
; RUN-CHECKS: bounds
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@tile = internal addrspace(3) global [128 x float] undef, align 4

define void @k(ptr %out) {
entry:
; CHECK-LABEL: define void @k(
; CHECK: call i32 @__td_check_shared(i32 {{[0-9]+}}, ptr addrspacecast (ptr addrspace(3) getelementptr ([128 x float], ptr addrspace(3) @tile, i64 0, i64 5) to ptr), i32 4, i32 4, ptr addrspacecast (ptr addrspace(3) @tile to ptr), i64 512, i32 4)
  store float 1.0, ptr addrspace(3) getelementptr ([128 x float], ptr addrspace(3) @tile, i64 0, i64 5), align 4
  %v = load float, ptr addrspace(3) getelementptr ([128 x float], ptr addrspace(3) @tile, i64 0, i64 5), align 4
; CHECK: call i32 @__td_check_shared(
; CHECK: call i32 @__td_check_global(i32 {{[0-9]+}}, i32 0, ptr %out, i32 4, i32 4)
  %old = load float, ptr %out, align 4
  %s = fadd float %v, %old
; CHECK: call i32 @__td_check_global(i32 {{[0-9]+}}, i32 0, ptr %out, i32 4, i32 4)
  store float %s, ptr %out, align 4
  ret void
}

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1}
