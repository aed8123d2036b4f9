; numerics: a widening's shadow. Halves loaded from an input (shadowless: their shadows are their values) and
; widened to float have, as shadow, the widened float widened once more to double — one conversion chain the
; CPU's vectoriser keeps together with the kernel's own. A half the kernel rounded itself keeps the shadow of
; what it rounded, widened: the rounding is what the shadow measures.
; RUN-CHECKS: numerics
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define void @k(ptr %a, ptr %b, ptr %out, i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %acc = phi float [ 0.0, %entry ], [ %acc1, %loop ]
  %i64 = zext i32 %i to i64
  %pa = getelementptr half, ptr %a, i64 %i64
  %ha = load half, ptr %pa, align 2
  %fa = fpext half %ha to float
  %pb = getelementptr <2 x half>, ptr %b, i64 %i64
  %hb = load <2 x half>, ptr %pb, align 4
  %fb = fpext <2 x half> %hb to <2 x float>
  %b0 = extractelement <2 x float> %fb, i32 0
  %prod = fmul float %fa, %b0
  %rounded = fptrunc float %prod to half
  %back = fpext half %rounded to float
  %acc1 = fadd float %acc, %back
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
; CHECK: %ha = load half
; CHECK-NOT: fpext half
; CHECK: %fa = fpext half {{%[0-9]+}} to float
; CHECK-NEXT: [[SA:%[0-9]+]] = fpext float %fa to double
; CHECK: %hb = load <2 x half>
; CHECK-NOT: fpext <2 x half>
; CHECK: %fb = fpext <2 x half> {{%[0-9]+}} to <2 x float>
; CHECK-NEXT: [[SB:%[0-9]+]] = fpext <2 x float> %fb to <2 x double>
; CHECK: %prod = fmul float %fa, %b0
; CHECK-NEXT: [[SP:%[0-9]+]] = fmul double [[SA]],
; CHECK-NEXT: %rounded = fptrunc float %prod to half
; CHECK-NEXT: [[SR:%[0-9]+]] = fptrunc double [[SP]] to float
; CHECK-NEXT: %back = fpext half %rounded to float
; CHECK-NEXT: [[SBACK:%[0-9]+]] = fpext float [[SR]] to double
; CHECK-NEXT: %acc1 = fadd float %acc, %back
; CHECK-NEXT: fadd double %{{[0-9]+}}, [[SBACK]]
