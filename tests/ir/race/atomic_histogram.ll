; race and init on atomics: an atomic add into a histogram is a race hook of kind 10 (atomic, race) alone,
; 6 (atomic, init) with init alone, 14 with both; the key buffer, only read, is an init check (4) and no race.
; RUN-CHECKS: race RACE
; RUN-CHECKS: init INIT
; RUN-CHECKS: race,init BOTH
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define void @count(ptr %hist, ptr %keys) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t64 = zext i32 %t to i64
  %kp = getelementptr i32, ptr %keys, i64 %t64
  %key = load i32, ptr %kp, align 4
  %k64 = zext i32 %key to i64
  %bin = getelementptr i32, ptr %hist, i64 %k64
  %old = atomicrmw add ptr %bin, i32 1 monotonic, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

!nvvm.annotations = !{!0}
!0 = !{ptr @count, !"kernel", i32 1}

; RACE-LABEL: define void @count(
; RACE-NOT: ptr %kp, i32 4, i32
; RACE: call void @__td_race_global(i32 {{[0-9]+}}, i32 0, ptr %bin, i32 4, i32 10,
; RACE: atomicrmw add ptr %bin
; INIT-LABEL: define void @count(
; INIT: call void @__td_race_global(i32 {{[0-9]+}}, i32 1, ptr %kp, i32 4, i32 4,
; INIT: call void @__td_race_global(i32 {{[0-9]+}}, i32 0, ptr %bin, i32 4, i32 6,
; BOTH-LABEL: define void @count(
; BOTH: call void @__td_race_global(i32 {{[0-9]+}}, i32 1, ptr %kp, i32 4, i32 4,
; BOTH: call void @__td_race_global(i32 {{[0-9]+}}, i32 0, ptr %bin, i32 4, i32 14,
