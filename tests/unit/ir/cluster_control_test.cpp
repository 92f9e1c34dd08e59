// The mapping's `cluster` control: parsed onto the instance, printed back, refused with a
// message naming the instance and the rule where it cannot apply; and mapping::set_cluster,
// what `kiln compile --cluster` applies.
#include "ir/parser.h"
#include "ir/printer.h"

#include <gtest/gtest.h>

namespace kiln::ir {
namespace {

std::string block_instance(const std::string& attrs) {
    return "mapping {\n  instance b : v @ BLOCK {\n" + attrs + "  }\n}\n";
}

std::string parse_error(const std::string& text) {
    auto p = parse_program(text, "m.kiln");
    EXPECT_FALSE(p.ok()) << "parsed without error:\n" << text;
    return p.ok() ? "" : p.errors()[0].str();
}

TEST(ClusterControl, ParsesOntoTheInstanceAndPrintsBack) {
    auto p = parse_program(block_instance("    warpspecialize\n    persistent\n    cluster = 2\n"),
                           "m.kiln");
    ASSERT_TRUE(p.ok()) << p.error_text();
    ASSERT_EQ(p->mapping.instances.size(), 1u);
    EXPECT_EQ(p->mapping.instances[0].cluster, 2);
    const std::string printed = print_program(*p);
    EXPECT_NE(printed.find("cluster = 2"), std::string::npos) << printed;
    auto again = parse_program(printed, "printed.kiln");
    ASSERT_TRUE(again.ok()) << again.error_text();
    EXPECT_EQ(again->mapping.instances[0].cluster, 2);
}

TEST(ClusterControl, OneIsTheDefaultAndIsNotPrinted) {
    auto p = parse_program(block_instance("    warpspecialize\n    cluster = 1\n"), "m.kiln");
    ASSERT_TRUE(p.ok()) << p.error_text();
    EXPECT_EQ(p->mapping.instances[0].cluster, 1);
    EXPECT_EQ(print_program(*p).find("cluster"), std::string::npos);
}

TEST(ClusterControl, SizesOtherThanOneOrTwoAreRefused) {
    EXPECT_EQ(parse_error(block_instance("    warpspecialize\n    persistent\n    cluster = 4\n")),
              "m.kiln:5:15: error: instance 'b': cluster = 4 is not supported (clusters of 1 or 2 "
              "CTAs)");
    EXPECT_EQ(parse_error(block_instance("    cluster = 2\n    cluster = 2\n")),
              "m.kiln:4:5: error: duplicate 'cluster' in instance 'b' (first at m.kiln:3:5)");
}

TEST(ClusterControl, NeedsAPersistentWarpSpecializedBlockInstance) {
    EXPECT_EQ(parse_error(block_instance("    cluster = 2\n    warpspecialize\n")),
              "m.kiln:3:5: error: instance 'b': cluster = 2 needs `warpspecialize` and "
              "`persistent` on the same instance (the pair's DMA roles multicast into each "
              "other's pipeline, tile after tile)");
    EXPECT_EQ(parse_error("mapping {\n  instance w : v @ WARPGROUP {\n    cluster = 2\n  }\n}\n"),
              "m.kiln:3:5: error: instance 'w': cluster = 2 needs a BLOCK instance (clusters "
              "group thread blocks)");
}

TEST(ClusterControl, SetClusterAppliesToTheWarpSpecializedBlockInstance) {
    auto p = parse_program(block_instance("    warpspecialize\n    persistent\n") + "", "m.kiln");
    ASSERT_TRUE(p.ok()) << p.error_text();
    EXPECT_EQ(mapping::set_cluster(p->mapping, 2), "");
    EXPECT_EQ(p->mapping.instances[0].cluster, 2);
    EXPECT_EQ(mapping::set_cluster(p->mapping, 3),
              "instance 'b': cluster = 3 is not supported (clusters of 1 or 2 CTAs)");
    EXPECT_EQ(p->mapping.instances[0].cluster, 2); // unchanged on refusal
    auto plain = parse_program(block_instance("    warpspecialize\n"), "m.kiln");
    ASSERT_TRUE(plain.ok());
    EXPECT_NE(mapping::set_cluster(plain->mapping, 2)
                  .find("needs `warpspecialize` and "
                        "`persistent`"),
              std::string::npos);
    auto none = parse_program(block_instance("    persistent\n"), "m.kiln");
    ASSERT_TRUE(none.ok());
    EXPECT_EQ(mapping::set_cluster(none->mapping, 2),
              "cluster = 2: the mapping has no warp-specialized BLOCK instance to cluster");
}

} // namespace
} // namespace kiln::ir
