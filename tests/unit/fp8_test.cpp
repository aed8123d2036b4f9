// fp8 element types against values worked out by hand from the formats (E4M3: bias 7, S.1111.111 NaN;
// E5M2: bias 15, IEEE specials).
#include <cmath>
#include <gtest/gtest.h>

#include "frontend/elem_type.h"
#include "frontend/fp8.h"

using namespace td;

TEST(Fp8, DecodesBothFormats) {
  EXPECT_EQ(fp8E4M3ToFloat(0x38), 1.0f);
  EXPECT_EQ(fp8E4M3ToFloat(0x7e), 448.0f);
  EXPECT_EQ(fp8E4M3ToFloat(0xc6), -3.5f);  // 1 1000 110: -(1 + 6/8) * 2^(8 - 7)
  EXPECT_TRUE(std::isnan(fp8E4M3ToFloat(0x7f)));
  EXPECT_EQ(fp8E4M3ToFloat(0x01), std::ldexp(1.0f, -9));  // the smallest subnormal
  EXPECT_EQ(fp8E5M2ToFloat(0x3c), 1.0f);
  EXPECT_EQ(fp8E5M2ToFloat(0x7b), 57344.0f);
  EXPECT_TRUE(std::isinf(fp8E5M2ToFloat(0x7c)));
  EXPECT_EQ(fp8E5M2ToFloat(0x01), std::ldexp(1.0f, -16));
}

TEST(Fp8, EncodesToNearestEvenAndOverflowsAsTheFormatDoes) {
  EXPECT_EQ(floatToFp8E4M3(1.0f), 0x38);
  EXPECT_EQ(floatToFp8E4M3(1.0625f), 0x38) << "the tie between 1 and 1.125 goes to the even code";
  EXPECT_EQ(floatToFp8E4M3(1.1875f), 0x3a) << "the tie between 1.125 and 1.25 goes to the even code";
  EXPECT_EQ(floatToFp8E4M3(-3.5f), 0xc6);
  EXPECT_EQ(floatToFp8E4M3(460.0f), 0x7e) << "below the midpoint above 448";
  EXPECT_EQ(floatToFp8E4M3(500.0f), 0x7f) << "out of range: NaN";
  EXPECT_EQ(floatToFp8E5M2(1.0f), 0x3c);
  EXPECT_EQ(floatToFp8E5M2(1e6f), 0x7c) << "out of range: inf";
  EXPECT_EQ(floatToFp8E5M2(-1e6f), 0xfc);
  double x = 0;
  uint8_t bits = 0;
  storeElem(ElemType::F8E4M3, &bits, 0.3);  // 0.3 lies between 0.28125 and 0.3125: nearer the latter
  x = loadElem(ElemType::F8E4M3, &bits);
  EXPECT_EQ(x, 0.3125);
  EXPECT_EQ(elemSize(ElemType::F8E5M2), 1u);
  EXPECT_EQ(parseElemType("float8_e4m3fn"), ElemType::F8E4M3);
}

TEST(Fp8, TheMxScaleFormatAsTorchConvertsIt) {
  // torch.tensor([...]).to(torch.float8_e8m0fnu).view(torch.uint8), read from torch 2.x: 1 -> 127, 1.5 -> 128
  // (half way rounds up), 1.4999 -> 127, 3 -> 129, 2.5 -> 128, 0.75 -> 127, -2 -> 128 (no sign), inf and NaN
  // -> 255, 1e-40 -> 0, 6e-39 -> 1 (a subnormal's bits by the same rule), 1.7 * 2^127 -> 255 (overflow).
  const std::pair<float, uint8_t> cases[] = {{1.0f, 127},   {1.5f, 128},  {1.4999f, 127},     {3.0f, 129},
                                             {2.5f, 128},   {0.75f, 127}, {-2.0f, 128},       {INFINITY, 255},
                                             {NAN, 255},    {1e-40f, 0},  {6e-39f, 1},        {0.0f, 0},
                                             {std::ldexp(1.7f, 127), 255}};
  for (auto [value, code] : cases) EXPECT_EQ(floatToFp8E8M0(value), code) << value;
  EXPECT_EQ(fp8E8M0ToFloat(127), 1.0f);
  EXPECT_EQ(fp8E8M0ToFloat(0), std::ldexp(1.0f, -127));
  EXPECT_EQ(fp8E8M0ToFloat(254), std::ldexp(1.0f, 127));
  EXPECT_TRUE(std::isnan(fp8E8M0ToFloat(255)));
  EXPECT_EQ(parseElemType("float8_e8m0fnu"), ElemType::F8E8M0);
  EXPECT_EQ(parseElemType("fp8_e8_t"), ElemType::F8E8M0);
  EXPECT_STREQ(npyDescr(ElemType::F8E8M0), "|u1");
}
