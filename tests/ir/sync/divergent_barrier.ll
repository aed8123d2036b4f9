; sync: a barrier only some threads reach and a shuffle under a 16-lane mask. Each full barrier leaves its
; word in its generation's slot (__td_barrier_wait: site, thread count 0 = the whole block), is bracketed by
; the synchronisation counts, then compares the slot's word with its own once counted (__td_barrier_passed);
; the shuffle's mask goes to __td_warp_mask before it; a thread's exit is counted.
; RUN-CHECKS: sync
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define void @k(ptr %out) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %c = icmp ult i32 %t, 16
  br i1 %c, label %then, label %done
then:
  call void @llvm.nvvm.barrier0()
  br label %done
done:
  %m = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 65535, i32 %t, i32 1, i32 31)
  %t64 = zext i32 %t to i64
  %p = getelementptr i32, ptr %out, i64 %t64
  store i32 %m, ptr %p, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier0()
declare i32 @llvm.nvvm.shfl.sync.bfly.i32(i32, i32, i32, i32)

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1}

; CHECK-LABEL: define void @k(
; CHECK: call void @__td_block_start()
; CHECK: then:
; CHECK-NEXT: call void @__td_barrier_wait(i32 [[SITE:[0-9]+]], i32 0)
; CHECK-NEXT: call void @__td_sync_release(i32 0, i32 0)
; CHECK-NEXT: call void @llvm.nvvm.barrier0(), !td.site
; CHECK-NEXT: call void @__td_sync_passed(i32 0, i32 0)
; CHECK-NEXT: call void @__td_barrier_passed(i32 [[SITE]], i32 0)
; CHECK: call void @__td_warp_mask(i32 {{[0-9]+}}, i32 65535, i32 0)
; CHECK-NEXT: call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 65535,
; CHECK: call void @__td_thread_exit()
; CHECK-NEXT: ret void
; CHECK-NOT: __td_race_
