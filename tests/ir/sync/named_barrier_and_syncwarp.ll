; sync: a named barrier over 64 threads carries its thread count into every hook (a partial barrier:
; __td_barrier_wait and __td_barrier_passed leave the block's slot alone), and __syncwarp is a warp
; synchronisation (kind 1, TD_SYNC_WARP) whose mask is recorded like a shuffle's.
; RUN-CHECKS: sync
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define void @k(ptr %out) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  call void @llvm.nvvm.barrier.sync.cnt(i32 1, i32 64)
  call void @llvm.nvvm.bar.warp.sync(i32 -1)
  %t64 = zext i32 %t to i64
  %p = getelementptr i32, ptr %out, i64 %t64
  store i32 %t, ptr %p, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier.sync.cnt(i32, i32)
declare void @llvm.nvvm.bar.warp.sync(i32)

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1}

; CHECK-LABEL: define void @k(
; CHECK: call void @__td_barrier_wait(i32 {{[0-9]+}}, i32 64)
; CHECK-NEXT: call void @__td_sync_release(i32 0, i32 64)
; CHECK-NEXT: call void @llvm.nvvm.barrier.sync.cnt(i32 1, i32 64)
; CHECK-NEXT: call void @__td_sync_passed(i32 0, i32 64)
; CHECK-NEXT: call void @__td_barrier_passed(i32 {{[0-9]+}}, i32 64)
; CHECK-NEXT: call void @__td_warp_mask(i32 {{[0-9]+}}, i32 -1, i32 1)
; CHECK-NEXT: call void @__td_sync_release(i32 1, i32 -1)
; CHECK-NEXT: call void @llvm.nvvm.bar.warp.sync(i32 -1)
; CHECK-NEXT: call void @__td_sync_passed(i32 1, i32 -1)
