# Turns a set of text files into one C++ source with a table of (path relative to ROOT, contents), so
# the check families' device sources travel inside the binary without a line per file in CMakeLists.
# INPUTS: the files, separated by '|'.
string(REPLACE "|" ";" files "${INPUTS}")
set(body "")
set(rows "")
set(i 0)
foreach(f IN LISTS files)
  file(READ "${f}" content HEX)
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${content}")
  file(RELATIVE_PATH rel "${ROOT}" "${f}")
  string(APPEND body "static const char file${i}[] = {${bytes}0x00};\n")
  string(APPEND rows "  {\"${rel}\", file${i}},\n")
  math(EXPR i "${i} + 1")
endforeach()
file(WRITE "${OUTPUT}" "// generated from the device sources of tile-doctor's check families\n#include <cstddef>\n${body}\
namespace td {\nstruct EmbeddedFile { const char* path; const char* text; };\n\
extern const EmbeddedFile kEmbeddedDeviceFiles[];\nextern const size_t kEmbeddedDeviceFileCount;\n\
const EmbeddedFile kEmbeddedDeviceFiles[] = {\n${rows}};\nconst size_t kEmbeddedDeviceFileCount = ${i};\n}\n")
