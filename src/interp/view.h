#pragma once
// A tensor as a task sees it: the root storage plus the chain of partition pieces that led to it
// (ir::piece_to_source applied link by link). Every partition operator maps each piece dimension
// to exactly one dimension of the partitioned tensor, independently of the other coordinates, so
// a view is stored per dimension: for each of its dimensions, the root dimension it runs along
// and the root coordinate of each of its coordinates (-1 where a padded piece leaves the root).
// Building a piece therefore costs the sum of its extents, not their product.
#include "interp/host_tensor.h"
#include "ir/diagnostic.h"
#include "ir/partition.h"

#include <memory>
#include <vector>

namespace kiln::interp {

class View {
public:
    // Where the elements live in root().data: element (c0, c1, ...) is at
    // base + dim[0][c0] + dim[1][c1] + ..., or nowhere (padding) if any term is -1 or `outside`.
    struct Offsets {
        int64_t base = 0;
        bool outside = false;
        std::vector<std::vector<int64_t>> dim;
        bool padded(std::size_t d, int64_t c) const { return dim[d][c] < 0; }
    };

    // The whole of `root`.
    static View whole(std::shared_ptr<HostTensor> root);
    // The whole of `root`, a private copy of elements of another tensor: coordinate c along
    // dimension d reports `coords[d][c]` (-1: none) as its root coordinate, and so do the
    // coordinates of its pieces. The event-IR simulator runs leaves on such copies, and `mask`
    // must see the coordinates of the tensor the copy stands for.
    static View whole(std::shared_ptr<HostTensor> root, std::vector<std::vector<int64_t>> coords);

    // Piece `index` of the partition `spec` of this view (shape `part` from ir::partition_shape).
    // An index outside the grid is a Diagnostic at `loc`.
    Result<View> piece(const ir::PartitionSpec& spec, const ir::PartitionShape& part,
                       const ir::Shape& index, const Loc& loc) const;

    // The same piece of `root`, a tensor of this view's root shape: a layout depends on shapes
    // only, so one built for a tensor serves every tensor of its shape.
    View on(std::shared_ptr<HostTensor> root) const;

    const ir::Shape& shape() const { return layout_->shape; }
    ir::DType dtype() const { return root_->dtype; }
    HostTensor& root() const { return *root_; }
    bool same_root(const View& o) const { return root_ == o.root_; }

    // Root coordinate of coordinate `c` along view dimension `d` (-1: outside the root).
    int64_t root_coord(std::size_t d, int64_t c) const {
        return layout_->reported.empty() ? layout_->root_coords[d][c] : layout_->reported[d][c];
    }
    // The root dimension that view dimension `d` runs along.
    int root_dim(std::size_t d) const { return layout_->root_dim[d]; }
    const Offsets& offsets() const { return layout_->offsets; }
    // One offset per element in row-major order, -1 for padding.
    std::vector<int64_t> element_offsets() const;

    int64_t size() const { return element_count(shape()); }

private:
    // Immutable once built and shared by copies, so passing a view around copies no tables.
    struct Layout {
        ir::Shape shape;
        std::vector<int> root_dim;                     // per view dimension
        std::vector<std::vector<int64_t>> root_coords; // per view dimension, per coordinate
        ir::Shape fixed; // root coordinates of the root dimensions no view dimension runs along
        bool outside = false; // a fixed coordinate lies outside the root: all of it is padding
        // Coordinates root_coord() reports when they are not the storage's (see whole()).
        std::vector<std::vector<int64_t>> reported;
        Offsets offsets; // the same placement as flat offsets into the root's data
    };
    static std::shared_ptr<const Layout> finish(Layout l, const HostTensor& root);

    std::shared_ptr<HostTensor> root_;
    std::shared_ptr<const Layout> layout_;
};

// The elements of `v` in row-major order; padding reads 0.
std::vector<double> read_all(const View& v);
// Stores `values` (row-major, one per element) into `v`, rounding to its dtype; writes to
// padding are dropped.
void write_all(const View& v, const std::vector<double>& values);

} // namespace kiln::interp
