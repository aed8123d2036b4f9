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
