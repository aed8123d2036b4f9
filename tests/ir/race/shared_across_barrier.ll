; race: a tile staged in shared memory, a barrier, a neighbour's element read back. Every access of the tile
; and of the written buffer goes through a race hook before it happens (kind bits: 1 write, 8 race, 16 the
; stored value travels with it); the input buffer, never written, needs none. The barrier is bracketed by the
; synchronisation counts (release before, passed after). No bounds check appears.
; RUN-CHECKS: race
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
; CHECK-NOT: @__td_race_global({{.*}}ptr %src
; CHECK: call void @__td_race_shared(i32 {{[0-9]+}}, ptr {{%[0-9]+}}, i32 4, i32 25, ptr addrspacecast (ptr addrspace(3) @tile to ptr), i64 512,
; CHECK: call i32 @__td_contain_shared_array({{.*}}, ptr addrspacecast (ptr addrspace(3) @tile to ptr), i64 512,
; CHECK: store float {{%[0-9]+}}, ptr addrspace(3) %slot
; CHECK: call void @__td_sync_release(i32 0, i32 0)
; CHECK-NEXT: call void @llvm.nvvm.barrier0()
; CHECK-NEXT: call void @__td_sync_passed(i32 0, i32 0)
; CHECK: call void @__td_race_shared(i32 {{[0-9]+}}, ptr {{%[0-9]+}}, i32 4, i32 8, ptr addrspacecast (ptr addrspace(3) @tile to ptr), i64 512,
; CHECK: call void @__td_race_global(i32 {{[0-9]+}}, i32 1, ptr %dst, i32 4, i32 25,
; CHECK-NOT: __td_check_
