; containment, which no --checks switches off (here only the launch family, which instruments nothing):
; an access through an argument is checked against that argument's buffer (__td_contain_arg), one into a
; local array against the array (__td_contain_object: base, 16 bytes), and a call through a pointer against
; the module's address-taken functions (__td_contain_callee over @__td_contain_functions); each refused
; access goes to the sink. No family's hook appears.
; RUN-CHECKS: launch
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define internal float @twice(float %v) {
  %r = fmul float %v, 2.0
  ret float %r
}

define void @k(ptr %x, ptr %out, i32 %i, ptr %f) {
entry:
  %local = alloca [4 x float], align 4
  %v = load float, ptr %x, align 4
  %i64 = sext i32 %i to i64
  %slot = getelementptr [4 x float], ptr %local, i64 0, i64 %i64
  store float %v, ptr %slot, align 4
  %w = load float, ptr %local, align 4
  %g = select i1 true, ptr @twice, ptr %f
  %r = call float %g(float %w)
  store float %r, ptr %out, align 4
  ret void
}

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1}

; CHECK: @__td_contain_functions = addrspace(1) constant [1 x ptr] [ptr @twice]
; CHECK-LABEL: define void @k(
; CHECK: [[OK:%[0-9]+]] = call i32 @__td_contain_arg(i32 {{[0-9]+}}, i32 0, ptr %x, i32 4, ptr null, i32 0)
; CHECK: select i1 {{%[0-9]+}}, ptr %x, ptr addrspacecast (ptr addrspace(1) @__td_sink to ptr)
; CHECK: call i32 @__td_contain_object(i32 {{[0-9]+}}, ptr %slot, i32 4, ptr %local, i64 16)
; CHECK: call i32 @__td_contain_callee(i32 {{[0-9]+}}, ptr {{%.+}}, ptr addrspacecast (ptr addrspace(1) @__td_contain_functions to ptr), i32 1)
; CHECK: call i32 @__td_contain_arg(i32 {{[0-9]+}}, i32 1, ptr %out, i32 4, ptr null, i32 0)
; CHECK-NOT: call {{.*}}@__td_{{check|race|num|sync|barrier}}
