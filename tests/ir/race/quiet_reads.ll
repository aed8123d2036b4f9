; race with and without sync: the read after the barrier shares no barrier interval with any write of the
; tile, so it cannot race; the pass drops its race check only when the sync family is on too (the intervals
; assume every thread passes the same barriers, which sync verifies). The write before the barrier keeps it,
; but for launches where each thread's `tile[t]` is its own (disjoint_writes.ll).
; RUN-CHECKS: race RACE
; RUN-CHECKS: race,sync SYNCED
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

; RACE-LABEL: define void @stage(
; RACE: call void @__td_race_shared({{.*}}, i32 4, i32 25, ptr addrspacecast
; RACE: call void @llvm.nvvm.barrier0()
; RACE: call void @__td_race_shared({{.*}}, i32 4, i32 8, ptr addrspacecast
; SYNCED-LABEL: define void @stage(
; SYNCED: select i1 %{{[0-9]+}}, i32 17, i32 25
; SYNCED: call void @__td_race_shared({{.*}}, i32 4, i32 %{{[0-9]+}}, ptr addrspacecast
; SYNCED: call void @__td_barrier_wait(i32 0, i32 0)
; SYNCED: call void @llvm.nvvm.barrier0()
; SYNCED-NOT: call void @__td_race_shared(
; SYNCED: call void @__td_race_global({{.*}}ptr %dst
