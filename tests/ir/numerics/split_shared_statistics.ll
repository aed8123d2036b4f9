; numerics on a two-element shared array that LLVM split into scalar addrspace(3) globals (a softmax's max and
; sum): the hooks take generic pointers, so each split global is passed through an addrspacecast and the
; module stays valid (it was "instrumented module is invalid", exit 4, before: issue 30). Also with every
; family at once: each split global is its own 4-byte array to bounds and race (thread 0's store, the only
; thread that writes it, takes the race check only where the block is not one row: own_bytes.h).
; RUN-CHECKS: numerics
; RUN-CHECKS: all ALL
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@stats.0 = internal addrspace(3) global float undef, align 4
@stats.1 = internal addrspace(3) global float undef, align 4

define void @k(ptr %x, ptr %out) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %c = icmp eq i32 %t, 0
  br i1 %c, label %write, label %join
write:
  %v = load float, ptr %x, align 4
  store float %v, ptr addrspace(3) @stats.0, align 4
  %w = fmul float %v, 2.0
  store float %w, ptr addrspace(3) @stats.1, align 4
  br label %join
join:
  call void @llvm.nvvm.barrier0()
  %a = load float, ptr addrspace(3) @stats.0, align 4
  %b = load float, ptr addrspace(3) @stats.1, align 4
  %s = fadd float %a, %b
  %t64 = zext i32 %t to i64
  %p = getelementptr float, ptr %out, i64 %t64
  store float %s, ptr %p, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier0()

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1}

; CHECK-LABEL: define void @k(
; CHECK: call void @__td_num_tally_store(ptr %td.tally, i32 {{[0-9]+}}, ptr addrspacecast (ptr addrspace(3) @stats.1 to ptr),
; CHECK: call double @__td_num_load(ptr addrspacecast (ptr addrspace(3) @stats.1 to ptr),
; CHECK: call void @__td_num_tally_store(
; ALL-LABEL: define void @k(
; ALL: %[[ONE:[0-9]+]] = select i1 %{{[0-9]+}}, i32 21, i32 29
; ALL: call void @__td_race_shared(i32 {{[0-9]+}}, ptr addrspacecast (ptr addrspace(3) @stats.0 to ptr), i32 4, i32 %[[ONE]], ptr addrspacecast (ptr addrspace(3) @stats.0 to ptr), i64 4,
; ALL: call i32 @__td_check_shared(i32 {{[0-9]+}}, ptr addrspacecast (ptr addrspace(3) @stats.0 to ptr), i32 4, i32 4, ptr addrspacecast (ptr addrspace(3) @stats.0 to ptr), i64 4, i32 4)
; ALL: call void @__td_num_tally_store(ptr %td.tally, i32 {{[0-9]+}}, ptr addrspacecast (ptr addrspace(3) @stats.1 to ptr),
; ALL: call void @llvm.nvvm.barrier0()
; ALL: call double @__td_num_load(ptr addrspacecast (ptr addrspace(3) @stats.1 to ptr),
