# Turns a text file into a C++ source defining `const char NAME[]` (the file's bytes, NUL-terminated),
# so the device prelude and runtime travel inside the binary.
file(READ "${INPUT}" content HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${content}")
file(WRITE "${OUTPUT}" "// generated from ${INPUT}\nextern const char ${NAME}[];\nconst char ${NAME}[] = {${bytes}0x00};\n")
