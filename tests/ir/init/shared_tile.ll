; init: the tile's write and read are init hooks (5: write, init; 4: read, init), and so is the read of the
; input buffer, which a kernel might read before anything wrote it; no race bit (8) on any of them.
; RUN-CHECKS: init
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@tile = internal addrspace(3) global [128 x float] undef, align 4

define void @stage(ptr %in, ptr %out) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t64 = zext i32 %t to i64
  %src = getelementptr float, ptr %in, i64 %t64
  %v = load float, ptr %src, align 4
  %slot = getelementptr [128 x float], ptr addrspace(3) @tile, i64 0, i64 %t64
  store float %v, ptr addrspace(3) %slot, align 4
  call void @llvm.nvvm.barrier0()
  %n = xor i32 %t, 1
  %n64 = zext i32 %n to i64
  %other = getelementptr [128 x float], ptr addrspace(3) @tile, i64 0, i64 %n64
  %w = load float, ptr addrspace(3) %other, align 4
  %dst = getelementptr float, ptr %out, i64 %t64
  store float %w, ptr %dst, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier0()

!nvvm.annotations = !{!0}
!0 = !{ptr @stage, !"kernel", i32 1}

; CHECK-LABEL: define void @stage(
; CHECK: call void @__td_race_global(i32 {{[0-9]+}}, i32 0, ptr %src, i32 4, i32 4,
; CHECK: call void @__td_race_shared(i32 {{[0-9]+}}, ptr {{%[0-9]+}}, i32 4, i32 5, ptr addrspacecast (ptr addrspace(3) @tile to ptr)
; CHECK: call void @llvm.nvvm.barrier0()
; CHECK: call void @__td_race_shared(i32 {{[0-9]+}}, ptr {{%[0-9]+}}, i32 4, i32 4, ptr addrspacecast (ptr addrspace(3) @tile to ptr)
; CHECK: call void @__td_race_global(i32 {{[0-9]+}}, i32 1, ptr %dst, i32 4, i32 5,
