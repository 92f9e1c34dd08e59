// FastDivmod (fast_divmod.h) against `/` and `%`: every divisor up to 4096 over a sweep of
// numerators, divisors around powers of two, and the extremes of the range (n and d up to
// 2^31 - 1), where the multiplier's rounding error is largest.
#if !defined(__CUDACC__)
#define __host__
#define __device__
#endif
#include "kiln/gemm/fast_divmod.h"

#include <gtest/gtest.h>

#include <climits>
#include <vector>

namespace {

using kiln::gemm::FastDivmod;

void expect_exact(int d, int n) {
    const FastDivmod f(d);
    ASSERT_EQ(f.div(n), n / d) << n << " / " << d;
    ASSERT_EQ(f.mod(n), n % d) << n << " % " << d;
}

std::vector<int> numerators() {
    std::vector<int> ns;
    for (int n = 0; n < 5000; ++n)
        ns.push_back(n);
    for (int p = 12; p < 31; ++p)
        for (int delta : {-3, -1, 0, 1, 7})
            ns.push_back((1 << p) + delta);
    ns.push_back(INT_MAX);
    ns.push_back(INT_MAX - 1);
    return ns;
}

TEST(FastDivmod, SmallDivisorsOverASweep) {
    const auto ns = numerators();
    for (int d = 1; d <= 4096; ++d)
        for (int n : ns)
            expect_exact(d, n);
}

TEST(FastDivmod, DivisorsNearPowersOfTwoAndTheTop) {
    std::vector<int> ds = {INT_MAX, INT_MAX - 1, 1 << 30, (1 << 30) + 1, (1 << 30) - 1};
    for (int p = 13; p < 31; ++p)
        for (int delta : {-1, 0, 1})
            ds.push_back((1 << p) + delta);
    const auto ns = numerators();
    for (int d : ds)
        for (int n : ns)
            expect_exact(d, n);
}

TEST(FastDivmod, ANonPositiveDivisorDividesByOne) {
    EXPECT_EQ(FastDivmod(0).div(12345), 12345);
    EXPECT_EQ(FastDivmod(-4).mod(77), 0);
}

} // namespace
