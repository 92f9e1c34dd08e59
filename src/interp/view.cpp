#include "interp/view.h"

#include <cassert>

namespace kiln::interp {
namespace {

// The dimension of the partitioned tensor that piece dimension `d` runs along.
std::size_t source_dim_of(const ir::PartitionSpec& spec, std::size_t d) {
    if (spec.is_mma)
        return d; // mma pieces keep the tensor's rank and dimension order
    std::size_t k = 0;
    for (std::size_t s = 0; s < spec.blocks.tile.size(); ++s)
        if (spec.blocks.tile[s] && k++ == d)
            return s;
    assert(false && "piece dimension beyond the blocks tile");
    return 0;
}

} // namespace

std::shared_ptr<const View::Layout> View::finish(Layout l, const HostTensor& root) {
    const ir::Shape stride = row_major_strides(root.shape);
    Offsets& o = l.offsets;
    o.outside = l.outside;
    std::vector<bool> covered(root.shape.size(), false);
    for (std::size_t d = 0; d < l.shape.size(); ++d) {
        covered[l.root_dim[d]] = true;
        std::vector<int64_t> off(l.shape[d]);
        for (int64_t c = 0; c < l.shape[d]; ++c) {
            int64_t rc = l.root_coords[d][c];
            off[c] = rc < 0 ? -1 : rc * stride[l.root_dim[d]];
        }
        o.dim.push_back(std::move(off));
    }
    for (std::size_t r = 0; r < covered.size(); ++r)
        if (!covered[r])
            o.base += l.fixed[r] * stride[r];
    return std::make_shared<const Layout>(std::move(l));
}

View View::whole(std::shared_ptr<HostTensor> root) {
    Layout l;
    l.shape = root->shape;
    for (std::size_t d = 0; d < l.shape.size(); ++d) {
        l.root_dim.push_back(static_cast<int>(d));
        std::vector<int64_t> coords(l.shape[d]);
        for (int64_t c = 0; c < l.shape[d]; ++c)
            coords[c] = c;
        l.root_coords.push_back(std::move(coords));
    }
    l.fixed.assign(l.shape.size(), 0);
    View v;
    v.layout_ = finish(std::move(l), *root);
    v.root_ = std::move(root);
    return v;
}

View View::whole(std::shared_ptr<HostTensor> root, std::vector<std::vector<int64_t>> coords) {
    View v = whole(std::move(root));
    Layout l = *v.layout_;
    assert(coords.size() == l.shape.size());
    l.reported = std::move(coords);
    v.layout_ = std::make_shared<const Layout>(std::move(l));
    return v;
}

View View::on(std::shared_ptr<HostTensor> root) const {
    assert(root->shape == root_->shape);
    View v = *this;
    v.root_ = std::move(root);
    return v;
}

Result<View> View::piece(const ir::PartitionSpec& spec, const ir::PartitionShape& part,
                         const ir::Shape& index, const Loc& loc) const {
    if (index.size() != part.grid.size())
        return Diagnostic{loc, "piece index has " + std::to_string(index.size()) +
                                   " coordinates, the partition grid " +
                                   ir::shape_string(part.grid) + " has " +
                                   std::to_string(part.grid.size())};
    for (std::size_t d = 0; d < index.size(); ++d)
        if (index[d] < 0 || index[d] >= part.grid[d])
            return Diagnostic{loc, "piece index " + ir::shape_string(index) +
                                       " is outside the partition grid " +
                                       ir::shape_string(part.grid)};
    const Layout& src = *layout_;
    Layout l;
    l.shape = part.piece;
    l.fixed = src.fixed;
    l.outside = src.outside;
    // Probe one piece dimension at a time from the piece's origin.
    ir::Shape coord(part.piece.size(), 0), out;
    ir::piece_to_source(spec, src.shape, index, coord, out);
    const ir::Shape origin = out;
    std::vector<bool> fed(src.shape.size(), false);
    for (std::size_t d = 0; d < part.piece.size(); ++d) {
        std::size_t s = source_dim_of(spec, d);
        fed[s] = true;
        std::vector<int64_t> coords(part.piece[d]), reported;
        for (int64_t c = 0; c < part.piece[d]; ++c) {
            coord[d] = c;
            ir::piece_to_source(spec, src.shape, index, coord, out);
            const bool inside = out[s] >= 0 && out[s] < src.shape[s];
            coords[c] = inside ? src.root_coords[s][out[s]] : -1;
            if (!src.reported.empty())
                reported.push_back(inside ? src.reported[s][out[s]] : -1);
        }
        coord[d] = 0;
        l.root_dim.push_back(src.root_dim[s]);
        l.root_coords.push_back(std::move(coords));
        if (!src.reported.empty())
            l.reported.push_back(std::move(reported));
    }
    // Dimensions the pieces drop (squeezed by `_`) pin one root coordinate.
    for (std::size_t s = 0; s < src.shape.size(); ++s) {
        if (fed[s])
            continue;
        int64_t c = origin[s] >= 0 && origin[s] < src.shape[s] ? src.root_coords[s][origin[s]] : -1;
        if (c < 0)
            l.outside = true;
        else
            l.fixed[src.root_dim[s]] = c;
    }
    View v;
    v.root_ = root_;
    v.layout_ = finish(std::move(l), *root_);
    return v;
}

std::vector<int64_t> View::element_offsets() const {
    const Offsets& o = offsets();
    // Row-major order is the product of the per-dimension tables, outermost dimension first.
    std::vector<int64_t> flat{o.outside ? -1 : o.base}, next;
    for (const auto& dim : o.dim) {
        next.clear();
        next.reserve(flat.size() * dim.size());
        for (int64_t e : flat)
            for (int64_t off : dim)
                next.push_back(e < 0 || off < 0 ? -1 : e + off);
        flat.swap(next);
    }
    return flat;
}

std::vector<double> read_all(const View& v) {
    const auto offs = v.element_offsets();
    const auto& data = v.root().data;
    std::vector<double> out(offs.size());
    for (std::size_t i = 0; i < offs.size(); ++i)
        out[i] = offs[i] < 0 ? 0.0 : data[offs[i]];
    return out;
}

void write_all(const View& v, const std::vector<double>& values) {
    const auto offs = v.element_offsets();
    HostTensor& t = v.root();
    for (std::size_t i = 0; i < offs.size(); ++i)
        if (offs[i] >= 0)
            t.store(offs[i], values[i]);
}

} // namespace kiln::interp
