; ModuleID = 'scale.hip'
source_filename = "scale.hip"
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: readwrite)
define dso_local void @scale(ptr nocapture noundef writeonly %0, ptr nocapture noundef readonly %1, i32 noundef %2) local_unnamed_addr #0 !dbg !9 {
  %4 = tail call range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x(), !dbg !12
  %5 = shl nsw i32 %4, 6, !dbg !13
  %6 = tail call range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !14
  %7 = add nuw nsw i32 %5, %6, !dbg !15
  %8 = icmp sgt i32 %7, %2, !dbg !16
  br i1 %8, label %15, label %9, !dbg !17

9:                                                ; preds = %3
  %10 = zext nneg i32 %7 to i64
  %11 = getelementptr inbounds float, ptr %0, i64 %10
  %12 = getelementptr inbounds float, ptr %1, i64 %10
  %13 = load float, ptr %12, align 4, !dbg !18, !tbaa !19
  %14 = fmul contract float %13, 2.000000e+00, !dbg !23
  store float %14, ptr %11, align 4, !dbg !24, !tbaa !19
  br label %15, !dbg !25

15:                                               ; preds = %9, %3
  ret void, !dbg !26
}

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #1

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x() #1

attributes #0 = { mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: readwrite) "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_80" "target-features"="+ptx85,+sm_80" "uniform-work-group-size"="true" }
attributes #1 = { mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none) }

!llvm.dbg.cu = !{!0}
!nvvm.annotations = !{!2}
!llvm.module.flags = !{!3, !4, !5, !6, !7}
!llvm.ident = !{!8}

!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: !1, producer: "Debian clang version 19.1.7 (3~deb12u1)", isOptimized: true, runtimeVersion: 0, emissionKind: DebugDirectivesOnly, splitDebugInlining: false, nameTableKind: None)
!1 = !DIFile(filename: "scale.hip", directory: "/work/main/tests/ir")
!2 = !{ptr @scale, !"kernel", i32 1}
!3 = !{i32 7, !"Dwarf Version", i32 2}
!4 = !{i32 2, !"Debug Info Version", i32 3}
!5 = !{i32 1, !"wchar_size", i32 4}
!6 = !{i32 4, !"nvvm-reflect-ftz", i32 0}
!7 = !{i32 7, !"frame-pointer", i32 2}
!8 = !{!"Debian clang version 19.1.7 (3~deb12u1)"}
!9 = distinct !DISubprogram(name: "scale", scope: !1, file: !1, line: 17, type: !10, scopeLine: 17, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!10 = !DISubroutineType(types: !11)
!11 = !{}
!12 = !DILocation(line: 18, column: 11, scope: !9)
!13 = !DILocation(line: 18, column: 20, scope: !9)
!14 = !DILocation(line: 18, column: 27, scope: !9)
!15 = !DILocation(line: 18, column: 25, scope: !9)
!16 = !DILocation(line: 19, column: 9, scope: !9)
!17 = !DILocation(line: 19, column: 7, scope: !9)
!18 = !DILocation(line: 19, column: 31, scope: !9)
!19 = !{!20, !20, i64 0}
!20 = !{!"float", !21, i64 0}
!21 = !{!"omnipotent char", !22, i64 0}
!22 = !{!"Simple C++ TBAA"}
!23 = !DILocation(line: 19, column: 29, scope: !9)
!24 = !DILocation(line: 19, column: 22, scope: !9)
!25 = !DILocation(line: 19, column: 15, scope: !9)
!26 = !DILocation(line: 20, column: 1, scope: !9)
