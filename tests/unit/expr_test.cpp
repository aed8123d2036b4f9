#include <gtest/gtest.h>

#include "frontend/expr.h"

using td::evalExpr;

TEST(Expr, ArithmeticAndFunctions) {
  td::ParamMap p{{"M", 259}, {"BM", 64}};
  EXPECT_EQ(evalExpr("cdiv(M, BM)", p), 5);
  EXPECT_EQ(evalExpr("M / BM", p), 4);
  EXPECT_EQ(evalExpr("-7 / 2", p), -3);  // rounds toward zero
  EXPECT_EQ(evalExpr("M % BM + 2 * (3 - 1)", p), 3 + 4);
  EXPECT_EQ(evalExpr("min(M, BM) + max(1, 2)", p), 66);
}

TEST(Expr, ErrorsNameTheProblem) {
  td::ParamMap p{{"M", 1}};
  try {
    evalExpr("cdiv(N, 2)", p);
    FAIL();
  } catch (const td::ExprError& e) {
    EXPECT_NE(std::string(e.what()).find("unknown parameter 'N'"), std::string::npos);
  }
  EXPECT_THROW(evalExpr("M / 0", p), td::ExprError);
  EXPECT_THROW(evalExpr("(M", p), td::ExprError);
  EXPECT_THROW(evalExpr("9223372036854775807 + 1", p), td::ExprError);
}

// What crashed the tool by a signal before (issue 12): C's undefined divisions and unbounded nesting are
// input errors.
TEST(Expr, HostileInputIsAnErrorNotACrash) {
  td::ParamMap p{{"BIG", INT64_MIN}};
  for (const char* e : {"(-9223372036854775807-1) / -1", "(-9223372036854775807-1) % -1", "cdiv(BIG, -1)",
                        "-BIG", "BIG * -1", "0 - BIG"})
    EXPECT_THROW(evalExpr(e, p), td::ExprError) << e;
  EXPECT_EQ(evalExpr("BIG / 1", p), INT64_MIN);
  EXPECT_EQ(evalExpr("-(-9223372036854775807)", p), INT64_MAX);
  std::string deep = std::string(40000, '(') + "1" + std::string(40000, ')');
  EXPECT_THROW(evalExpr(deep, p), td::ExprError) << "too long";
  std::string nested = std::string(1500, '(') + "1" + std::string(1500, ')');
  try {
    evalExpr(nested, p);
    FAIL();
  } catch (const td::ExprError& e) {
    EXPECT_NE(std::string(e.what()).find("nested deeper"), std::string::npos) << e.what();
  }
  std::string minus(2000, '-');
  EXPECT_THROW(evalExpr(minus + "1", p), td::ExprError);
  EXPECT_EQ(evalExpr(std::string(40, '(') + "7" + std::string(40, ')'), p), 7) << "ordinary nesting still works";
}
