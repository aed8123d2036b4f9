; race with sync: a block reduction's tree reads and writes @buf between the same barriers, yet thread t
; writes only buf[t], and the other threads of a step (t' < s) read buf[t'] and buf[t' + s], never buf[t]
; (checks/race/own_bytes.h): every access's kind is a select between no race check (reads 0, writes 17) and
; the check (8, 25) on blockDim.y == blockDim.z == 1. A guard one too wide (t <= s) or a step without its
; barrier keeps the checks (8, 25) as they were, and so does a step that threads take different ways round the
; loop to (two latches), two extern arrays, which are one, or an index whose 32-bit arithmetic wraps.
; RUN-CHECKS: race,sync RACE
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@buf = internal addrspace(3) global [256 x float] undef, align 4
@wide = internal addrspace(3) global [256 x float] undef, align 4
@fast = internal addrspace(3) global [256 x float] undef, align 4
@split = internal addrspace(3) global [256 x float] undef, align 4
@dyn_a = external addrspace(3) global [0 x float], align 4
@dyn_b = external addrspace(3) global [0 x float], align 4
@wrap = internal addrspace(3) global [256 x float] undef, align 4

; for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) { if (t < s) buf[t] += buf[t + s]; __syncthreads(); }
define void @tree(ptr %out) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %n = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %t64 = zext i32 %t to i64
  %mine = getelementptr [256 x float], ptr addrspace(3) @buf, i64 0, i64 %t64
  store float 1.0, ptr addrspace(3) %mine, align 4
  call void @llvm.nvvm.barrier0()
  %s0 = lshr i32 %n, 1
  br label %step

step:
  %s = phi i32 [ %s0, %entry ], [ %half, %next ]
  %in = icmp ult i32 %t, %s
  br i1 %in, label %add, label %next

add:
  %ts = add i32 %s, %t
  %ts64 = zext i32 %ts to i64
  %other = getelementptr [256 x float], ptr addrspace(3) @buf, i64 0, i64 %ts64
  %a = load float, ptr addrspace(3) %other, align 4
  %b = load float, ptr addrspace(3) %mine, align 4
  %sum = fadd float %a, %b
  store float %sum, ptr addrspace(3) %mine, align 4
  br label %next

next:
  call void @llvm.nvvm.barrier0()
  %half = lshr i32 %s, 1
  %more = icmp ugt i32 %s, 1
  br i1 %more, label %step, label %done

done:
  %first = icmp eq i32 %t, 0
  br i1 %first, label %write, label %exit

write:
  %r = load float, ptr addrspace(3) @buf, align 4
  store float %r, ptr %out, align 4
  br label %exit

exit:
  ret void
}

; if (t <= s): thread s writes wide[s] while thread 0 reads it.
define void @tree_guard_one_too_wide(ptr %out) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %n = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %t64 = zext i32 %t to i64
  %mine = getelementptr [256 x float], ptr addrspace(3) @wide, i64 0, i64 %t64
  store float 1.0, ptr addrspace(3) %mine, align 4
  call void @llvm.nvvm.barrier0()
  %s0 = lshr i32 %n, 2
  br label %step

step:
  %s = phi i32 [ %s0, %entry ], [ %half, %next ]
  %in = icmp ule i32 %t, %s
  br i1 %in, label %add, label %next

add:
  %ts = add i32 %s, %t
  %ts64 = zext i32 %ts to i64
  %other = getelementptr [256 x float], ptr addrspace(3) @wide, i64 0, i64 %ts64
  %a = load float, ptr addrspace(3) %other, align 4
  store float %a, ptr addrspace(3) %mine, align 4
  br label %next

next:
  call void @llvm.nvvm.barrier0()
  %half = lshr i32 %s, 1
  %more = icmp ugt i32 %s, 1
  br i1 %more, label %step, label %exit

exit:
  ret void
}

; No barrier between the steps: s changes within one interval, and thread t + s' of a later step reads
; what thread t wrote in an earlier one.
define void @tree_without_barrier(ptr %out) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %n = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %t64 = zext i32 %t to i64
  %mine = getelementptr [256 x float], ptr addrspace(3) @fast, i64 0, i64 %t64
  store float 1.0, ptr addrspace(3) %mine, align 4
  call void @llvm.nvvm.barrier0()
  %s0 = lshr i32 %n, 1
  br label %step

step:
  %s = phi i32 [ %s0, %entry ], [ %half, %next ]
  %in = icmp ult i32 %t, %s
  br i1 %in, label %add, label %next

add:
  %ts = add i32 %s, %t
  %ts64 = zext i32 %ts to i64
  %other = getelementptr [256 x float], ptr addrspace(3) @fast, i64 0, i64 %ts64
  %a = load float, ptr addrspace(3) %other, align 4
  store float %a, ptr addrspace(3) %mine, align 4
  br label %next

next:
  %half = lshr i32 %s, 1
  %more = icmp ugt i32 %s, 1
  br i1 %more, label %step, label %exit

exit:
  ret void
}

; Two ways round the loop, chosen by each thread's parity: the step is not one value for the block (thread 0
; may read split[q] as an odd thread q, a step behind, writes it), and the checks stay.
define void @tree_two_latches(ptr %out) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %n = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %t64 = zext i32 %t to i64
  %mine = getelementptr [256 x float], ptr addrspace(3) @split, i64 0, i64 %t64
  store float 1.0, ptr addrspace(3) %mine, align 4
  call void @llvm.nvvm.barrier0()
  %s0 = lshr i32 %n, 1
  %low = and i32 %t, 1
  %even = icmp eq i32 %low, 0
  br label %step

step:
  %s = phi i32 [ %s0, %entry ], [ %half, %turn ], [ %quarter, %other ]
  %in = icmp ult i32 %t, %s
  br i1 %in, label %add, label %next

add:
  %ts = add i32 %s, %t
  %ts64 = zext i32 %ts to i64
  %far = getelementptr [256 x float], ptr addrspace(3) @split, i64 0, i64 %ts64
  %a = load float, ptr addrspace(3) %far, align 4
  store float %a, ptr addrspace(3) %mine, align 4
  br label %next

next:
  call void @llvm.nvvm.barrier0()
  %half = lshr i32 %s, 1
  %quarter = lshr i32 %s, 2
  %more = icmp ugt i32 %s, 3
  br i1 %more, label %turn, label %exit

turn:
  br i1 %even, label %other, label %step

other:
  br label %step

exit:
  ret void
}

; Two extern (dynamic) arrays are one: both start at the window's dynamic offset. Thread t writes dyn_a[t]
; while thread t - 1 reads dyn_b[t], the same bytes: neither a lone write nor bytes of its own.
define void @two_extern_views(ptr %out) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t64 = zext i32 %t to i64
  %mine = getelementptr [0 x float], ptr addrspace(3) @dyn_a, i64 0, i64 %t64
  store float 1.0, ptr addrspace(3) %mine, align 4
  %u = add nuw nsw i32 %t, 1
  %u64 = zext i32 %u to i64
  %next = getelementptr [0 x float], ptr addrspace(3) @dyn_b, i64 0, i64 %u64
  %v = load float, ptr addrspace(3) %next, align 4
  %dst = getelementptr float, ptr %out, i64 %t64
  store float %v, ptr %dst, align 4
  call void @llvm.nvvm.barrier0()
  ret void
}

; An index that wraps: t * 2^30 in 32 bits is 0 for threads 0 and 4, which store one element. Arithmetic
; narrower than the address without its no-wrap flag stays a leaf of its own (affine_offsets.h), so the
; store keeps its check.
define void @wrapping_index(ptr %out) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = mul i32 %t, 1073741824
  %i64 = sext i32 %i to i64
  %slot = getelementptr [256 x float], ptr addrspace(3) @wrap, i64 0, i64 %i64
  store float 1.0, ptr addrspace(3) %slot, align 4
  call void @llvm.nvvm.barrier0()
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare void @llvm.nvvm.barrier0()

!nvvm.annotations = !{!0, !1, !2, !3, !4, !5}
!0 = !{ptr @tree, !"kernel", i32 1}
!1 = !{ptr @tree_guard_one_too_wide, !"kernel", i32 1}
!2 = !{ptr @tree_without_barrier, !"kernel", i32 1}
!3 = !{ptr @tree_two_latches, !"kernel", i32 1}
!4 = !{ptr @two_extern_views, !"kernel", i32 1}
!5 = !{ptr @wrapping_index, !"kernel", i32 1}

; RACE-LABEL: define void @tree(
; RACE: %[[K0:[0-9]+]] = select i1 %{{[0-9]+}}, i32 17, i32 25
; RACE: call void @__td_race_shared({{.*}}, i32 4, i32 %[[K0]], ptr addrspacecast {{.*}}@buf
; RACE: %[[K1:[0-9]+]] = select i1 %{{[0-9]+}}, i32 0, i32 8
; RACE: call void @__td_race_shared({{.*}}, i32 4, i32 %[[K1]], ptr addrspacecast {{.*}}@buf
; RACE: %[[K2:[0-9]+]] = select i1 %{{[0-9]+}}, i32 0, i32 8
; RACE: call void @__td_race_shared({{.*}}, i32 4, i32 %[[K2]], ptr addrspacecast {{.*}}@buf
; RACE: %[[K3:[0-9]+]] = select i1 %{{[0-9]+}}, i32 17, i32 25
; RACE: call void @__td_race_shared({{.*}}, i32 4, i32 %[[K3]], ptr addrspacecast {{.*}}@buf
; RACE: %[[K4:[0-9]+]] = select i1 %{{[0-9]+}}, i32 0, i32 8
; RACE: call void @__td_race_shared({{.*}}, i32 4, i32 %[[K4]], ptr addrspacecast {{.*}}@buf
; RACE-LABEL: define void @tree_guard_one_too_wide(
; RACE: call void @__td_race_shared({{.*}}, i32 4, i32 8, ptr addrspacecast {{.*}}@wide
; RACE: call void @__td_race_shared({{.*}}, i32 4, i32 25, ptr addrspacecast {{.*}}@wide
; RACE-LABEL: define void @tree_without_barrier(
; RACE: call void @__td_race_shared({{.*}}, i32 4, i32 8, ptr addrspacecast {{.*}}@fast
; RACE: call void @__td_race_shared({{.*}}, i32 4, i32 25, ptr addrspacecast {{.*}}@fast
; RACE-LABEL: define void @tree_two_latches(
; RACE: call void @__td_race_shared({{.*}}, i32 4, i32 8, ptr addrspacecast {{.*}}@split
; RACE: call void @__td_race_shared({{.*}}, i32 4, i32 25, ptr addrspacecast {{.*}}@split
; RACE-LABEL: define void @two_extern_views(
; RACE-NOT: select i1 {{.*}}, i32 17
; RACE: call void @__td_race_shared({{.*}}, i32 4, i32 25, ptr addrspacecast {{.*}}@dyn_a
; RACE: call void @__td_race_shared({{.*}}, i32 4, i32 8, ptr addrspacecast {{.*}}@dyn_b
; RACE-LABEL: define void @wrapping_index(
; RACE-NOT: select i1 {{.*}}, i32 17
; RACE: call void @__td_race_shared({{.*}}, i32 4, i32 25, ptr addrspacecast {{.*}}@wrap
