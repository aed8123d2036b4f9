// 4-bit integer buffers (int4/uint4), packed two to a byte with the even element in the low nibble, as
// TileLang's int4 buffers and PyTorch's packing code hold them: element access, sizes, coordinates and the
// .npy files bundles read and write (packed bytes, the last dimension halved; or one value an element).
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <unistd.h>

#include "frontend/elem_type.h"
#include "frontend/manifest.h"
#include "runtime/buffers.h"

using namespace td;
namespace fs = std::filesystem;

TEST(PackedInt4, ElementsSitInNibblesLowFirst) {
  uint8_t bytes[2] = {0, 0};
  storeElemAt(ElemType::I4, bytes, 0, -3);  // 0b1101 in the low nibble
  storeElemAt(ElemType::I4, bytes, 1, 7);
  storeElemAt(ElemType::I4, bytes, 2, -8);
  EXPECT_EQ(bytes[0], 0x7d);
  EXPECT_EQ(bytes[1], 0x08);
  EXPECT_EQ(loadElemAt(ElemType::I4, bytes, 0), -3);
  EXPECT_EQ(loadElemAt(ElemType::I4, bytes, 1), 7);
  EXPECT_EQ(loadElemAt(ElemType::I4, bytes, 2), -8);
  EXPECT_EQ(loadElemAt(ElemType::U4, bytes, 0), 13) << "the same nibble unsigned";
  EXPECT_EQ(storageBytes(ElemType::I4, 5), 3u);
  EXPECT_EQ(storageBytes(ElemType::F16, 5), 10u);
  EXPECT_EQ(elementOfByte(ElemType::U4, 7), 14) << "byte 7 holds elements 14 and 15";
  EXPECT_EQ(elementOfByte(ElemType::F32, -1), -1);
  EXPECT_EQ(*parseElemType("int4"), ElemType::I4);
}

TEST(PackedInt4, NpyFilesHoldPackedBytesOrOneValueAnElement) {
  fs::path dir = fs::temp_directory_path() / ("td_int4_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  // A [2, 6] int4 buffer: 12 elements in 6 bytes; written, it is an int8 [2, 3] array.
  ArgSpec w;
  w.name = "W";
  w.type = ElemType::I4;
  w.isBuffer = true;
  w.shape = {2, 6};
  uint8_t packed[6];
  for (int i = 0; i < 12; ++i) storeElemAt(ElemType::I4, packed, i, i - 6);
  writeNpy((dir / "w.npy").string(), w, packed);
  std::ifstream in(dir / "w.npy", std::ios::binary);
  std::string file((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(file.find("'descr': '|i1'"), std::string::npos);
  EXPECT_NE(file.find("'shape': (2, 3)"), std::string::npos) << file.substr(0, 120);

  // Read back as the init of a bundle buffer, packed; and a file with one int8 value an element.
  ArgSpec logical = w;
  logical.shape = {12};
  std::vector<int8_t> values;
  for (int i = 0; i < 12; ++i) values.push_back(static_cast<int8_t>(5 - i));
  ArgSpec asInt8 = logical;
  asInt8.type = ElemType::I8;
  writeNpy((dir / "logical.npy").string(), asInt8, values.data());
  std::ofstream(dir / "bundle.toml") << "[kernel]\nsource = \"k.cu\"\nentry = \"k\"\n[launch]\ngrid = [1]\nblock = [1]\n"
                                        "[[args]]\nname = \"W\"\ntype = \"int4*\"\nshape = [2, 6]\ninit = 'file(\"w.npy\")'\n"
                                        "[[args]]\nname = \"L\"\ntype = \"int4*\"\nshape = [12]\ninit = 'file(\"logical.npy\")'\n";
  std::ofstream(dir / "k.cu") << "extern \"C\" __global__ void k(signed char* W, signed char* L) {}\n";
  Bundle b = loadBundle((dir / "bundle.toml").string(), {});
  std::vector<ArgValue> args = makeArguments(b, 1, 0);
  ASSERT_EQ(args[0].bytes, 6u);
  for (int i = 0; i < 12; ++i) EXPECT_EQ(loadElemAt(ElemType::I4, args[0].data, i), i - 6) << i;
  for (int i = 0; i < 12; ++i) EXPECT_EQ(loadElemAt(ElemType::I4, args[1].data, i), 5 - i) << i;
  fs::remove_all(dir);
}
