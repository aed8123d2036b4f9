; numerics: an fma accumulating round a loop. Its birth test's cold path must know whether the addend (the
; previous sum) was already Inf or NaN, or an Inf carried in would be reported born at every step; it learns
; that from a mask carried round the loop (zero where the test passed, the result's lanes where it did not,
; the entering value's test before the loop), not from the previous sum, which would then stay live past the
; fma beside the new one (on the CPU a spill and a reload at every step of a GEMM's inner loop). Where the
; executor's primitive says registers are plentiful (the GPU's) the previous sum serves, as it cost less there.
; RUN-CHECKS: numerics
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define void @k(ptr %x, ptr %out, <4 x float> %start, i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %acc = phi <4 x float> [ %start, %entry ], [ %acc1, %loop ]
  %i64 = zext i32 %i to i64
  %p = getelementptr <4 x float>, ptr %x, i64 %i64
  %v = load <4 x float>, ptr %p, align 16
  %acc1 = call <4 x float> @llvm.fma.v4f32(<4 x float> %v, <4 x float> %v, <4 x float> %acc)
  %i1 = add i32 %i, 1
  %c = icmp slt i32 %i1, %n
  br i1 %c, label %loop, label %exit
exit:
  store <4 x float> %acc1, ptr %out, align 16
  ret void
}

declare <4 x float> @llvm.fma.v4f32(<4 x float>, <4 x float>, <4 x float>)

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1}

; CHECK-LABEL: define void @k(
; CHECK: entry:
; CHECK: [[ENTERING:%[0-9]+]] = fcmp ueq <4 x float> {{%[0-9]+}}, <float 0x7FF0000000000000,
; CHECK-NEXT: [[ENTERINGBITS:%[0-9]+]] = bitcast <4 x i1> [[ENTERING]] to i4
; CHECK: loop:
; CHECK: %td.nonfinite.carried = phi i4 [ [[ENTERINGBITS]], %entry ], [ %td.nonfinite, {{%[0-9a-z.]+}} ]
; CHECK: %acc1 = call <4 x float> @llvm.fma.v4f32(
; CHECK: call float @llvm.fabs.f32
; CHECK: br i1 {{%[0-9]+}}, label %[[COLD:[0-9]+]], label %[[TAIL:[0-9]+]]
; CHECK: [[COLD]]:
; CHECK: [[KEPT:%[0-9]+]] = select <4 x i1> {{%[0-9]+}}, <4 x float> %acc, <4 x float>
; CHECK: [[MASK:%[0-9]+]] = bitcast i4 %td.nonfinite.carried to <4 x i1>
; CHECK-NEXT: [[MASKED:%[0-9]+]] = select <4 x i1> [[MASK]], <4 x float> <float 0x7FF8000000000000,
; CHECK-NEXT: [[FEW:%[0-9]+]] = call i1 @__td_few_vector_registers()
; CHECK-NEXT: select i1 [[FEW]], <4 x float> [[MASKED]], <4 x float> [[KEPT]]
; CHECK: call void @__td_num_nonfinite(
; CHECK: [[TAIL]]:
; CHECK-NEXT: %td.nonfinite = phi i4 [ 0, {{%[0-9a-z.]+}} ], [ {{%[0-9]+}}, %[[COLD]] ]
