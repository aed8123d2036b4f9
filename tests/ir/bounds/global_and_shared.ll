; bounds: each access through a kernel argument is checked against that argument's buffer before it happens
; (site, argument number, pointer, bytes, alignment), each access of a shared array against the array (its
; base and 512 bytes); a refused access goes to the sink instead. Nothing of the race family appears.
; RUN-CHECKS: bounds
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@tile = internal addrspace(3) global [128 x float] undef, align 4

define void @stage(ptr %in, ptr %out) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t64 = zext i32 %t to i64
  %src = getelementptr float, ptr %in, i64 %t64
; CHECK-LABEL: define void @stage(
; CHECK: [[OK:%[0-9]+]] = call i32 @__td_check_global(i32 {{[0-9]+}}, i32 0, ptr %src, i32 4, i32 4)
; CHECK: [[GO:%[0-9]+]] = icmp ne i32 [[OK]], 0
; CHECK: [[P:%[0-9]+]] = select i1 [[GO]], ptr %src, ptr addrspacecast (ptr addrspace(1) @__td_sink to ptr)
; CHECK: load float, ptr [[P]]
  %v = load float, ptr %src, align 4
  %slot = getelementptr [128 x float], ptr addrspace(3) @tile, i64 0, i64 %t64
; CHECK: call i32 @__td_check_shared(i32 {{[0-9]+}}, ptr {{%[0-9]+}}, i32 4, i32 4, ptr addrspacecast (ptr addrspace(3) @tile to ptr), i64 512, i32 4)
  store float %v, ptr addrspace(3) %slot, align 4
; CHECK: call void @llvm.nvvm.barrier0()
  call void @llvm.nvvm.barrier0()
  %dst = getelementptr float, ptr %out, i64 %t64
; CHECK: call i32 @__td_check_global(i32 {{[0-9]+}}, i32 1, ptr %dst, i32 4, i32 4)
  store float %v, ptr %dst, align 4
; CHECK-NOT: __td_race
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier0()

!nvvm.annotations = !{!0}
!0 = !{ptr @stage, !"kernel", i32 1}
