; numerics: a float sum over a loop. The loop's accumulator is registered with its step count
; (__td_num_accumulator), the sum is shadowed in double beside the float one, and its store to the output is
; tallied against the shadow (__td_num_tally_store) with a non-finite check, the tally closed at the exit.
; RUN-CHECKS: numerics
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define void @k(ptr %x, ptr %out, i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %acc = phi float [ 0.0, %entry ], [ %acc1, %loop ]
  %i64 = zext i32 %i to i64
  %p = getelementptr float, ptr %x, i64 %i64
  %v = load float, ptr %p, align 4
  %acc1 = fadd float %acc, %v
  %i1 = add i32 %i, 1
  %c = icmp slt i32 %i1, %n
  br i1 %c, label %loop, label %exit
exit:
  store float %acc1, ptr %out, align 4
  ret void
}

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1}

; CHECK-LABEL: define void @k(
; CHECK: call void @__td_num_accumulator(i32 {{[0-9]+}}, i32 %td.acc.steps
; CHECK: %acc1 = fadd float %acc,
; CHECK-NEXT: [[SHADOW:%[0-9]+]] = fadd double
; CHECK: call void @__td_num_nonfinite(ptr %td.births,
; CHECK: call void @__td_num_tally_store(ptr %td.tally, i32 {{[0-9]+}}, ptr {{%[0-9]+}}, i32 0, i32 1, double {{%[0-9]+}}, double [[SHADOW]],
; CHECK: call void @__td_num_tally_end(i32 {{[0-9]+}}, ptr %td.tally)
; CHECK-NOT: __td_race_
