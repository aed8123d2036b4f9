; race with sync: stores that are their array's only access in their barrier interval, each thread storing
; bytes of its own for launches where blockDim.y = blockDim.z = 1 and the loop's stride spans the block
; (checks/race/disjoint_writes.h), take the race check only where the launch breaks that: their kind is a
; select between 17 (a write, its value, no check) and 25 (race). With init on the cheaper kind keeps the
; init bookkeeping (21 against 29). `pair[t / 2]` (two threads, one slot) and `row[t.y]` keep the check.
; RUN-CHECKS: race,sync RACE
; RUN-CHECKS: race,init,sync INIT
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@tile = internal addrspace(3) global [64 x [32 x half]] undef, align 2
@pair = internal addrspace(3) global [128 x float] undef, align 4
@row = internal addrspace(3) global [8 x float] undef, align 4

; for (i = tid; i < 2048; i += blockDim.x) tile[i / 32][i % 32] = in[i], as the optimiser leaves it.
define void @load_tile(ptr %in, ptr %out) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %n = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %go = icmp slt i32 %t, 2048
  br i1 %go, label %loop, label %done

loop:
  %i = phi i32 [ %t, %entry ], [ %next, %loop ]
  %fi = freeze i32 %i
  %r = sdiv i32 %fi, 32
  %r32 = mul i32 %r, 32
  %c = sub i32 %fi, %r32
  %i64 = sext i32 %i to i64
  %src = getelementptr half, ptr %in, i64 %i64
  %v = load half, ptr %src, align 2
  %r64 = sext i32 %r to i64
  %c64 = sext i32 %c to i64
  %slot = getelementptr [64 x [32 x half]], ptr addrspace(3) @tile, i64 0, i64 %r64, i64 %c64
  store half %v, ptr addrspace(3) %slot, align 2
  %next = add i32 %i, %n
  %more = icmp slt i32 %next, 2048
  br i1 %more, label %loop, label %done

done:
  call void @llvm.nvvm.barrier0()
  %t64 = zext i32 %t to i64
  %back = getelementptr [64 x [32 x half]], ptr addrspace(3) @tile, i64 0, i64 0, i64 %t64
  %w = load half, ptr addrspace(3) %back, align 2
  %dst = getelementptr half, ptr %out, i64 %t64
  store half %w, ptr %dst, align 2
  ret void
}

define void @share_slots(ptr %out) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %h = lshr i32 %t, 1
  %h64 = zext i32 %h to i64
  %slot = getelementptr [128 x float], ptr addrspace(3) @pair, i64 0, i64 %h64
  store float 1.0, ptr addrspace(3) %slot, align 4
  %y = call i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  %y64 = zext i32 %y to i64
  %cell = getelementptr [8 x float], ptr addrspace(3) @row, i64 0, i64 %y64
  store float 2.0, ptr addrspace(3) %cell, align 4
  call void @llvm.nvvm.barrier0()
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare void @llvm.nvvm.barrier0()

!nvvm.annotations = !{!0, !1}
!0 = !{ptr @load_tile, !"kernel", i32 1}
!1 = !{ptr @share_slots, !"kernel", i32 1}

; RACE-LABEL: define void @load_tile(
; RACE: %[[OWN:[0-9]+]] = icmp uge i64
; RACE: %[[KIND:[0-9]+]] = select i1 %{{[0-9]+}}, i32 17, i32 25
; RACE: call void @__td_race_shared({{.*}}, i32 2, i32 %[[KIND]], ptr addrspacecast
; RACE: call void @llvm.nvvm.barrier0()
; RACE-LABEL: define void @share_slots(
; RACE-NOT: select i1 {{.*}}, i32
; RACE: call void @__td_race_shared({{.*}}, i32 4, i32 25, ptr addrspacecast {{.*}}@pair
; RACE: call void @__td_race_shared({{.*}}, i32 4, i32 25, ptr addrspacecast {{.*}}@row
; INIT-LABEL: define void @load_tile(
; INIT: select i1 %{{[0-9]+}}, i32 21, i32 29
