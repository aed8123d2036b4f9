; every family at once on the staged tile: before each access the race/init hook, then the bounds check
; (which replaces containment's: a family that confines the access owns it); the barrier claimed, counted and
; bracketed; each thread's exit counted. Kind bits with race and init together: 29 a write with its value
; (21, init alone, where the launch gives each thread a slot of its own: disjoint_writes.h), 4 the read after
; the barrier (init only: with sync on, no write shares its interval).
; RUN-CHECKS: all
; RUN-CHECKS: bounds,race,init,sync,numerics,launch
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
; CHECK: call void @__td_block_start()
; CHECK: call void @__td_race_global(i32 {{[0-9]+}}, i32 0, ptr %src, i32 4, i32 4,
; CHECK-NEXT: call i32 @__td_check_global(i32 {{[0-9]+}}, i32 0, ptr %src, i32 4, i32 4)
; CHECK: select i1 %{{[0-9]+}}, i32 21, i32 29
; CHECK-NEXT: call void @__td_race_shared(i32 {{[0-9]+}}, ptr {{%[0-9]+}}, i32 4, i32 %{{[0-9]+}},
; CHECK: call i32 @__td_check_shared(
; CHECK: call void @__td_barrier_wait(i32 0, i32 0)
; CHECK-NEXT: call void @__td_sync_release(i32 0, i32 0)
; CHECK-NEXT: call void @llvm.nvvm.barrier0()
; CHECK-NEXT: call void @__td_sync_passed(i32 0, i32 0)
; CHECK-NEXT: call void @__td_barrier_passed(i32 0, i32 0)
; CHECK: call void @__td_race_shared(i32 {{[0-9]+}}, ptr {{%[0-9]+}}, i32 4, i32 4,
; CHECK: call i32 @__td_check_shared(
; CHECK: call void @__td_race_global(i32 {{[0-9]+}}, i32 1, ptr %dst, i32 4, i32 29,
; CHECK-NEXT: call i32 @__td_check_global(i32 {{[0-9]+}}, i32 1, ptr %dst, i32 4, i32 4)
; CHECK: call void @__td_thread_exit()
; CHECK-NOT: call {{.*}}@__td_contain_
