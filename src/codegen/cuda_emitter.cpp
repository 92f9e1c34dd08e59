#include "codegen/cuda_emitter.h"

#include "codegen/cluster_plan.h"
#include "codegen/code_writer.h"
#include "codegen/elementwise_kernel.h"
#include "codegen/kernel_plan.h"
#include "codegen/launcher.h"
#include "codegen/leaf_lowering.h"
#include "codegen/sync_lowering.h"
#include "codegen/tma_lowering.h"
#include "codegen/tma_store.h"
#include "ir/event_printer.h"

#include <algorithm>
#include <map>
#include <set>

namespace kiln::codegen {
namespace {

constexpr int64_t kMaxSmem = 227 * 1024;
constexpr int kComputeBarrierId = 1; // 0 is __syncthreads
constexpr int64_t kGroupRows = 8;    // row-tiles per rasterization group (as the hand-written GEMM)

std::string ir_line(const event::Op& op) {
    std::string s = "// " + op_name(op);
    return s;
}

// The loop's DMA copies that one full/empty barrier pair guards.
struct LoadGroup {
    std::string released_by; // the call whose completion frees the stage
    std::vector<TmaLoad> loads;
    std::string full, empty; // barrier array names
};

class Emitter {
public:
    Emitter(const event::EventProgram& p, const EmitOptions& o, KernelPlan plan)
        : program_(p), options_(o), plan_(std::move(plan)) {}

    Generated run() {
        lower_copies();
        cluster_ = plan_cluster(plan_, loads_);
        if (clustered() && (groups_.size() > 1 || !once_loads_.empty()))
            unsupported(*plan_.grid, "clusters of a loop with several copy groups (attention) are "
                                     "not generated");
        check_limit();
        for (auto& l : loads_)
            if (cluster_.splits_rows(l)) { // each CTA's box covers its half of the rows
                l.box[1] /= static_cast<uint32_t>(cluster_.size);
                maps_.at(l.global->name).box = l.box;
            }
        std::set<std::string> loaded;
        for (const auto& [name, l] : maps_)
            loaded.insert(name);
        stores_ = plan_tma_stores(program_, plan_, loaded, options_.tma_store_epilogue);
        check_smem();
        header();
        for (const auto* pfor : plan_.pre_grids)
            pre_launches_.push_back(emit_elementwise_kernel(w_, program_, plan_, *pfor));
        kernel();
        for (const auto* pfor : plan_.post_grids)
            post_launches_.push_back(emit_elementwise_kernel(w_, program_, plan_, *pfor));
        LaunchSpec spec = launch_spec();
        w_.raw(launcher_source(spec));
        return {w_.text(), std::move(spec)};
    }

private:
    // ---- analysis shared by kernel and launcher ----

    TmaLoad lower_load(const event::Op& c) {
        TmaLoad t = lower_tma_load(plan_, c);
        auto [it, fresh] = maps_.emplace(t.global->name, t);
        if (!fresh && it->second.box != t.box)
            unsupported(c, "a second TMA box shape for " + t.global->name);
        return t;
    }

    // The call whose completion frees a DMA copy's stage (its write-after-read reference).
    std::string released_by(const event::Op& c) const {
        for (const auto& r : c.after)
            if (r.cross && r.distance == plan_.stages)
                return r.id;
        unsupported(c, "no write-after-read reference guards the stage the DMA copy overwrites");
    }

    // The loop's copies in groups with one full/empty barrier pair each: the copies freed by the
    // same call (a GEMM's A and B; attention's K, freed by the scores call, and V, by the PV
    // call). A single group keeps the names `full` / `empty`.
    void lower_copies() {
        for (const auto* c : plan_.dma_copies) {
            TmaLoad t = lower_load(*c);
            loads_.push_back(t);
            const std::string by = released_by(*c);
            auto g = std::find_if(groups_.begin(), groups_.end(),
                                  [&](const LoadGroup& x) { return x.released_by == by; });
            if (g == groups_.end())
                g = groups_.insert(groups_.end(), LoadGroup{by, {}, "", ""});
            g->loads.push_back(t);
        }
        for (auto& g : groups_) {
            const bool single = groups_.size() == 1;
            g.full = single ? "full" : "full_" + g.loads[0].buffer->name;
            g.empty = single ? "empty" : "empty_" + g.loads[0].buffer->name;
        }
        for (const auto* c : plan_.once_copies)
            once_loads_.push_back(lower_load(*c));
    }

    const LoadGroup* group_of_copy(const std::string& copy) const {
        for (const auto& g : groups_)
            for (const auto& l : g.loads)
                if (l.copy->result == copy)
                    return &g;
        return nullptr;
    }
    const TmaLoad* once_load(const std::string& copy) const {
        for (const auto& l : once_loads_)
            if (l.copy->result == copy)
                return &l;
        return nullptr;
    }
    static std::string once_barrier(const TmaLoad& l, const char* kind) {
        return std::string(kind) + "_" + l.buffer->name;
    }
    // mbarriers after the buffers: a full/empty pair per stage and group, one pair per copy
    // loaded once per tile.
    int64_t barrier_count() const {
        return 2 * plan_.stages * static_cast<int64_t>(groups_.size()) +
               2 * static_cast<int64_t>(once_loads_.size());
    }

    void check_smem() {
        for (const auto* b : plan_.staged)
            if (b->offset % 1024 != 0 || (b->bytes() / b->stages) % 1024 != 0)
                unsupported(*plan_.loop,
                            "buffer " + b->name + ": swizzle128 stages must be 1024-byte aligned");
        for (const auto* b : plan_.shared)
            if (b->layout && b->offset >= 0 && b->offset % 1024 != 0)
                unsupported(*plan_.grid, "buffer " + b->name + ": swizzle128 buffers must be "
                                                               "1024-byte aligned");
        barrier_offset_ = (plan_.smem_bytes + 7) / 8 * 8;
        smem_total_ = barrier_offset_ + 8 * barrier_count();
        // 128B-swizzled staging buffers need 1024-byte alignment; where they do not fit beside
        // the buffers, the stores go directly from the registers.
        auto with_staging = [&] {
            staging_offset_ = (smem_total_ + 1023) / 1024 * 1024;
            return staging_offset_ + kStagingBytesPerWarpgroup * plan_.compute_warpgroups + 1024;
        };
        if (!stores_.empty() && with_staging() > kMaxSmem && !plan_.single_call_loop())
            stores_.clear();
        if (!stores_.empty())
            smem_total_ = with_staging();
        else
            smem_total_ += 1024; // alignment slack
        if (smem_total_ > kMaxSmem)
            unsupported(*plan_.grid, "shared memory " + std::to_string(smem_total_) +
                                         " bytes (buffers, barriers, alignment) exceeds 227 KiB");
    }

    // Work units of the persistent loop: tiles, or pairs of row-adjacent tiles in a cluster.
    int64_t tiles() const { return elements(cluster_.schedule.extents); }
    bool clustered() const { return cluster_.size > 1; }

    std::vector<std::string> size_names() const {
        if (!options_.size_order.empty())
            return options_.size_order;
        std::vector<std::string> out;
        for (const auto& [n, v] : program_.sizes)
            out.push_back(n);
        return out;
    }

    // ---- text ----

    void header() {
        std::vector<std::string> sizes;
        for (const auto& [n, v] : program_.sizes)
            sizes.push_back(n + " = " + std::to_string(v));
        w_.line("// Generated by `kiln compile --emit=cuda` from event program '" + program_.name +
                "' (sizes " + join(sizes, ", ") + ").");
        w_.line("// Comments name the event-IR ops each statement lowers; docs/codegen.md.");
        w_.line(
            "// Compiles with nvcc and with NVRTC (the kiln runtime), which sees no host code.");
        w_.line("#include <cuda_bf16.h>");
        w_.line("#include <cuda_fp16.h>");
        w_.raw("#if !defined(__CUDACC_RTC__)");
        w_.line("#include <cstddef>");
        w_.line("#include <mutex>");
        w_.line("#include <unordered_map>");
        w_.line("#include <cuda.h>");
        w_.line("#include <cuda_runtime.h>");
        w_.raw("#endif");
        for (const char* h :
             {"cstdint", "atomic", "barrier", "fence", "grid_dependency", "math", "mbarrier",
              "regs", "swizzle", "tma", "vector", "wgmma"})
            w_.line(std::string("#include \"kiln/") + h + ".cuh\"");
        if (clustered())
            w_.line("#include \"kiln/cluster.cuh\"");
        w_.line("");
        w_.line("namespace kiln_" + program_.name + " {");
        w_.line("constexpr int kStages = " + std::to_string(plan_.stages) + ";  // " +
                op_name(*plan_.loop) + ": pipeline = " + std::to_string(plan_.stages));
        w_.line("constexpr int kThreads = " + std::to_string(plan_.threads()) +
                ";  // 1 DMA warpgroup + " + std::to_string(plan_.compute_warpgroups) +
                " compute warpgroups");
        w_.line("constexpr int kComputeWarps = " + std::to_string(4 * plan_.compute_warpgroups) +
                ";");
        if (clustered())
            w_.line("constexpr int kClusterSize = " + std::to_string(cluster_.size) + ";  // " +
                    op_name(*plan_.grid) + ": cluster = " + std::to_string(cluster_.size) +
                    ", CTA pairs along " + cluster_.pair_var);
        w_.line("constexpr int kTiles = " + std::to_string(tiles()) + ";  // " +
                op_name(*plan_.grid) +
                (clustered() ? ", in pairs of " + cluster_.pair_var + "-tiles" : ""));
        w_.line("constexpr int kBarrierOffset = " + std::to_string(barrier_offset_) +
                ";  // after the staged buffers (alloc-smem)");
        if (!stores_.empty())
            w_.line("constexpr int kStagingOffset = " + std::to_string(staging_offset_) +
                    ";  // epilogue staging, " + std::to_string(kStagingBytesPerWarpgroup) +
                    " B per compute warpgroup");
        w_.line("// dynamic shared memory: " + std::to_string(smem_total_) +
                " B (+ full/empty mbarriers" + (stores_.empty() ? "" : ", staging") +
                " + 1024 B alignment slack)");
        w_.line("}  // namespace kiln_" + program_.name);
        w_.line("");
        for (const auto& def : epilogue_definitions(program_)) {
            w_.raw(def);
            w_.line("");
        }
    }

    std::vector<std::string> kernel_params() const {
        std::vector<std::string> out;
        for (const auto* p : plan_.params) {
            if (maps_.count(p->name) || stores_.count(p->name))
                out.push_back("const __grid_constant__ CUtensorMap tm_" + p->name);
            else
                out.push_back(cuda_type(p->dtype) + "* __restrict__ " + p->name);
        }
        return out;
    }

    void kernel() {
        w_.line("// " + op_name(*plan_.grid) + ": one CTA per tile" +
                (plan_.grid->loop.controls.persistent ? ", persistent over the tiles" : "") + ".");
        w_.line("extern \"C\" __global__ void __launch_bounds__(kiln_" + program_.name +
                "::kThreads, 1)");
        w_.open(program_.name + "(" + join(kernel_params(), ", ") + ")");
        w_.raw("#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900");
        w_.line("using namespace kiln_" + program_.name + ";");
        w_.line("extern __shared__ uint8_t smem_raw[];");
        w_.line("uint8_t* smem = reinterpret_cast<uint8_t*>((reinterpret_cast<uintptr_t>(smem_raw) "
                "+ 1023) & ~uintptr_t(1023));");
        for (const auto* b : plan_.staged)
            w_.line("uint8_t* const " + b->name + "_smem = smem + " + std::to_string(b->offset) +
                    ";  // alloc " + b->name + " : SHARED " + std::string(ir::spelling(b->dtype)) +
                    ir::shape_string(b->shape) + " stages " + std::to_string(b->stages) + " (" +
                    b->origin + ")");
        for (const auto* b : plan_.shared) {
            if (plan_.dead_buffers.count(b->name)) {
                w_.line("// alloc " + b->name +
                        (b->offset >= 0 ? " at " + std::to_string(b->offset) : std::string()) +
                        ": unused (what it would hold stays in registers)");
                continue;
            }
            w_.line("uint8_t* const " + b->name + "_smem = smem + " + std::to_string(b->offset) +
                    ";  // alloc " + b->name + " : SHARED " + std::string(ir::spelling(b->dtype)) +
                    ir::shape_string(b->shape) + " (" + b->origin + ")");
        }
        barrier_declarations();
        if (!stores_.empty())
            w_.line("uint8_t* const staging_smem = smem + kStagingOffset;");
        w_.open("if (threadIdx.x == 0)");
        for (const auto& g : groups_) {
            w_.open("for (int s = 0; s < kStages; ++s)");
            w_.line("kiln::dev::mbarrier::init(&" + g.full + "[s], 1);");
            w_.line(clustered() ? "kiln::dev::mbarrier::init(&" + g.empty +
                                      "[s], kComputeWarps * kClusterSize);"
                                : "kiln::dev::mbarrier::init(&" + g.empty + "[s], kComputeWarps);");
            w_.close();
        }
        for (const auto& l : once_loads_) {
            w_.line("kiln::dev::mbarrier::init(" + once_barrier(l, "full") + ", 1);");
            w_.line("kiln::dev::mbarrier::init(" + once_barrier(l, "empty") + ", kComputeWarps);");
        }
        w_.line("kiln::dev::fence::mbarrier_init();");
        for (const auto& [name, l] : maps_)
            w_.line("kiln::dev::tma::prefetch_descriptor(&tm_" + name + ");");
        w_.close();
        if (clustered()) {
            w_.line("// the peer CTA multicasts into our stages and arrives on our barriers: "
                    "initialized cluster-wide first");
            w_.line("kiln::dev::cluster::sync();");
            w_.line("const int cta_rank = static_cast<int>(kiln::dev::cluster::block_rank());");
        } else {
            w_.line("__syncthreads();");
        }
        if (!plan_.post_grids.empty())
            w_.line("kiln::dev::grid::launch_dependents();  // the next kernel may be scheduled "
                    "(it waits for this one to complete)");
        w_.open("if (threadIdx.x / 128 == 0)");
        dma_role();
        w_.otherwise();
        compute_role();
        w_.close();
        w_.raw("#endif");
        w_.close();
        w_.line("");
    }

    void barrier_declarations() {
        int64_t at = 0;
        for (const auto& g : groups_) {
            std::vector<std::string> copies;
            for (const auto& l : g.loads)
                copies.push_back("%" + l.copy->result);
            w_.line("// " + g.full + "[s]: the TMA copies " + join(copies, ", ") +
                    " of stage s landed; " + g.empty + "[s]: every compute warp" +
                    (clustered() ? " of both CTAs" : "") + " released stage s" +
                    (groups_.size() > 1 ? " (after %" + g.released_by + ")" : "") + ".");
            const std::string first = at == 0 ? "smem + kBarrierOffset"
                                              : "smem + kBarrierOffset + " + std::to_string(8 * at);
            w_.line("uint64_t* const " + g.full + " = reinterpret_cast<uint64_t*>(" + first + ");");
            w_.line("uint64_t* const " + g.empty + " = " + g.full + " + kStages;");
            at += 2 * plan_.stages;
        }
        for (const auto& l : once_loads_) {
            w_.line("// " + once_barrier(l, "full") + ": %" + l.copy->result + " (once per tile) landed; " +
                    once_barrier(l, "empty") + ": every compute warp finished the tile with " +
                    l.buffer->name + ".");
            w_.line("uint64_t* const " + once_barrier(l, "full") +
                    " = reinterpret_cast<uint64_t*>(smem + kBarrierOffset + " +
                    std::to_string(8 * at) + ");");
            w_.line("uint64_t* const " + once_barrier(l, "empty") + " = " +
                    once_barrier(l, "full") + " + 1;");
            at += 2;
        }
    }

    // Whether the TMA loads read a tensor an earlier element-wise kernel touches: then the DMA
    // role waits for it too (otherwise it streams operands while the earlier kernel finishes).
    bool dma_waits_for_previous() const {
        std::set<std::string> touched;
        for (const auto* pfor : plan_.pre_grids)
            for (const auto& op : pfor->loop.body.ops)
                for (const auto& v : op.args)
                    if (auto p = resolve_piece(plan_.scope, v))
                        touched.insert(p->tensor->name);
        for (const auto& l : loads_)
            if (touched.count(l.global->name))
                return true;
        return false;
    }

    void tile_loop_head() {
        w_.open(clustered() ? "for (int tile = blockIdx.x / kClusterSize; tile < kTiles; tile += "
                              "gridDim.x / kClusterSize)"
                            : "for (int tile = blockIdx.x; tile < kTiles; tile += gridDim.x)");
        tile_indices();
        if (clustered())
            w_.line("const int " + cluster_.pair_var +
                    " = pair * kClusterSize + cta_rank;  // "
                    "the pair's row-adjacent tiles (past the end: zero-filled, never stored)");
    }

    void tile_indices() {
        const auto& l = cluster_.schedule;
        const size_t n = l.vars.size();
        const int64_t group_rows = kGroupRows / cluster_.size;
        const bool grouped = l.controls.persistent && n >= 2 && l.extents[n - 2] > group_rows;
        // Leading variables (e.g. the batch) outermost; with grouping, the last two are visited in
        // groups of kGroupRows row-tiles, the row index fastest, so the CTAs resident at one time
        // share a few column and row panels in L2 (grouped rasterization).
        const auto decls = grid_index_decls(l, "tile", longest_first());
        for (size_t d = 0; d < (grouped ? n - 2 : n); ++d)
            w_.line(decls[d]);
        if (!grouped)
            return;
        const std::string rows = std::to_string(l.extents[n - 2]);
        const std::string group = std::to_string(group_rows * l.extents[n - 1]);
        const std::string plane = std::to_string(l.extents[n - 2] * l.extents[n - 1]);
        w_.line("// grouped rasterization: " + std::to_string(group_rows) + " " + l.vars[n - 2] +
                "-tiles per group, " + l.vars[n - 2] + " fastest (L2 reuse)");
        w_.line("const int in_plane = tile % " + plane + ";");
        w_.line("const int group_first = in_plane / " + group + " * " + std::to_string(group_rows) +
                ";");
        w_.line("const int group_rows = min(" + rows + " - group_first, " +
                std::to_string(group_rows) + ");");
        w_.line("const int " + l.vars[n - 2] + " = group_first + in_plane % " + group +
                " % group_rows;");
        w_.line("const int " + l.vars[n - 1] + " = in_plane % " + group + " / group_rows;");
    }

    // A limited loop gives the tiles unequal work. Where the limit grows with a grid index, that
    // index runs from its last value down, so the longest tiles start first and the short ones
    // fill the grid's tail (longest-processing-time order; causal attention's last query rows).
    std::set<std::string> longest_first() const {
        std::set<std::string> out;
        const ir::ExprPtr& limit = plan_.loop->loop.limit;
        if (!limit)
            return out;
        const auto& g = cluster_.schedule;
        for (size_t d = 0; d < g.vars.size(); ++d) {
            auto limit_at = [&](int64_t value) {
                std::map<std::string, int64_t> at;
                for (const auto& v : g.vars)
                    at[v] = v == g.vars[d] ? value : 0;
                auto r = ir::evaluate_int(*limit, ir::lookup_in(at));
                return r.ok() ? *r : 0;
            };
            if (limit_at(g.extents[d] - 1) > limit_at(0))
                out.insert(g.vars[d]);
        }
        return out;
    }

    // The loop's trip count: its extent, or min(extent, limit) where the program stops it early
    // (the limit reads the tile's indices, which both roles compute the same way).
    std::string k_loop_head(int first = 0) const {
        return "for (int " + plan_.loop_var() + " = " + std::to_string(first) + "; " +
               plan_.loop_var() + " < " + trip_count() + "; ++" + plan_.loop_var() + ")";
    }
    std::string trip_count() const {
        const event::Loop& l = plan_.loop->loop;
        const std::string extent = std::to_string(l.extents[0]);
        return l.limit ? "min(" + extent + ", " + c_expr(l.limit) + ")" : extent;
    }

    // A limit is evaluated by both roles from the tile's indices; in a cluster both CTAs of a
    // pair would have to agree on it.
    void check_limit() const {
        const ir::ExprPtr& limit = plan_.loop->loop.limit;
        if (!limit)
            return;
        if (clustered())
            unsupported(*plan_.loop, "a limited loop in a cluster: the CTAs of a pair share "
                                     "every multicast stage, so they must run the same iterations");
        std::vector<std::string> names;
        ir::collect_names(*limit, names);
        const auto& vars = plan_.grid->loop.vars;
        for (const auto& n : names)
            if (std::find(vars.begin(), vars.end(), n) == vars.end())
                unsupported(*plan_.loop, "its limit " + ir::to_string(limit) + " reads '" + n +
                                             "', not an index of the block's tile");
    }

    void dma_role() {
        const auto& c = plan_.grid->loop.controls;
        w_.line("// ---- role dma: warpgroup 0; one thread issues the TMA copies ----");
        w_.line("kiln::dev::regs::decrease<" + std::to_string(c.dma_registers) +
                ">();  // dma_registers = " + std::to_string(c.dma_registers));
        // The idle threads leave at once: waiting at the closing cluster barrier for the whole
        // kernel slowed every CTA of a 2-CTA launch by 25% (bench/NOTES.md, "v15").
        w_.line("if (threadIdx.x != 0) return;");
        if (dma_waits_for_previous())
            w_.line("kiln::dev::grid::wait_previous();  // an earlier kernel writes what the TMA "
                    "loads");
        w_.line("kiln::dev::mbarrier::PipelineState<kStages> st;");
        if (!once_loads_.empty())
            w_.line("uint32_t tile_phase = 0;  // parity of the tiles this CTA ran");
        tile_loop_head();
        for (const auto& l : once_loads_) {
            w_.line("// the previous tile's compute warps are done with " + l.buffer->name);
            w_.line("kiln::dev::mbarrier::wait(" + once_barrier(l, "empty") + ", tile_phase ^ 1u);");
            w_.line("kiln::dev::mbarrier::arrive_expect_tx(" + once_barrier(l, "full") + ", " +
                    std::to_string(l.bytes()) + ");");
            tma_load(l, once_barrier(l, "full"), l.buffer->name + "_smem");
        }
        w_.line("// " + op_name(*plan_.loop));
        w_.open(k_loop_head());
        for (const auto& g : groups_) {
            int64_t bytes = 0;
            bool waited = false;
            for (const auto& l : g.loads) {
                bytes += l.bytes();
                for (const auto& a : lower_refs(plan_, *l.copy)) {
                    w_.line("// %" + l.copy->result + " after " + a.ref + ": " + a.why);
                    if (!waited)
                        w_.line("kiln::dev::mbarrier::wait(&" + g.empty +
                                "[st.stage], st.phase ^ 1u);");
                    waited = true;
                }
            }
            w_.line("kiln::dev::mbarrier::arrive_expect_tx(&" + g.full + "[st.stage], " +
                    std::to_string(bytes) + ");");
            for (const auto& l : g.loads)
                tma_load(l, "&" + g.full + "[st.stage]", stage_pointer(*l.buffer, "st.stage"));
        }
        w_.line("st.advance();");
        w_.close();
        if (!once_loads_.empty())
            w_.line("tile_phase ^= 1u;");
        w_.close();
        if (clustered())
            dma_tail();
    }

    // A clustered CTA may not leave while the peer's compute warps can still arrive on its empty
    // barriers (the peer's multicasts into its stages landed before its own compute warps were
    // done): the DMA thread waits until every compute warp of the pair released each stage once
    // more. A closing cluster barrier did this before, in every thread after the epilogue, and
    // its release compiled to a GPU-scope fence in each (bench/NOTES.md, "v32").
    void dma_tail() {
        w_.line("// the pair's compute warps released every stage: no peer arrives on ours after");
        w_.open("for (int s = 0; s < kStages; ++s)");
        for (const auto& g : groups_)
            w_.line("kiln::dev::mbarrier::wait(&" + g.empty + "[st.stage], st.phase ^ 1u);");
        w_.line("st.advance();");
        w_.close();
    }

    void tma_load(const TmaLoad& l, const std::string& barrier, std::string dst) {
        w_.line(ir_line(*l.copy) + ": " + event::print_view(l.copy->src) + " -> " +
                l.copy->dst.name);
        std::vector<std::string> coords = l.coords;
        const bool multicast = cluster_.multicast(l);
        if (multicast && cluster_.splits_rows(l)) {
            const int64_t half = l.buffer->shape[0] / cluster_.size;
            w_.line("// shared by the pair: this CTA loads rows [" + std::to_string(half) +
                    " * cta_rank, " + std::to_string(half) +
                    " * (cta_rank + 1)) of each panel into both CTAs");
            coords[1] = "(" + coords[1] + ") + cta_rank * " + std::to_string(half);
            dst += " + cta_rank * " + std::to_string(half * kPanelRowBytes);
            if (l.panels > 1)
                w_.open("for (int p = 0; p < " + std::to_string(l.panels) + "; ++p)");
        } else if (multicast) {
            const std::string half = std::to_string(l.panels / cluster_.size);
            w_.line("// shared by the pair: this CTA loads panels [" + half + " * cta_rank, " +
                    half + " * (cta_rank + 1)) into both CTAs");
            w_.open("for (int p = " + half + " * cta_rank; p < " + half +
                    " * (cta_rank + 1); ++p)");
        } else if (l.panels > 1) {
            w_.open("for (int p = 0; p < " + std::to_string(l.panels) + "; ++p)");
        }
        const bool panel_loop = (multicast && !cluster_.splits_rows(l)) || l.panels > 1;
        if (panel_loop) {
            coords[0] = "(" + coords[0] + ") + p * " + std::to_string(kPanelElems);
            dst += " + p * " + std::to_string(l.panel_bytes);
        }
        w_.line(multicast ? "kiln::dev::tma::load_multicast(" + dst + ", &tm_" + l.global->name +
                                ", " + barrier + ", 0b11, " + join(coords, ", ") + ");"
                          : "kiln::dev::tma::load(" + dst + ", &tm_" + l.global->name + ", " +
                                barrier + ", " + join(coords, ", ") + ");");
        if (panel_loop)
            w_.close();
    }

    /// The compute warpgroup's index as emitted. Broadcast (wgmma::warpgroup_index), ptxas keeps
    /// it and the smem descriptors derived from it in uniform registers: the skinny GEMM on
    /// 64x64 pairs ran 2.6% faster, the other GEMM-family kernels level. Kernels that feed a
    /// wgmma from registers (attention's P) keep threadIdx.x / 128: with the broadcast, d64
    /// attention ran 5-6% slower (bench/NOTES.md v27).
    std::string warpgroup_expression() const {
        return plan_.register_operands.empty() ? "kiln::dev::wgmma::warpgroup_index()"
                                               : "threadIdx.x / 128";
    }

    void compute_role() {
        const auto& c = plan_.grid->loop.controls;
        const auto& d = plan_.compute_dims;
        w_.line("// ---- role compute: warpgroups 1.." + std::to_string(plan_.compute_warpgroups) +
                " ----");
        w_.line("kiln::dev::regs::increase<" + std::to_string(c.compute_registers) +
                ">();  // compute_registers = " + std::to_string(c.compute_registers));
        w_.line("const int " + d[0].var + " = " + warpgroup_expression() + " - 1;  // " +
                std::string(ir::spelling(d[0].level)));
        w_.line("const int " + d[1].var + " = threadIdx.x / 32 % 4;  // WARP");
        w_.line("const int " + d[2].var + " = threadIdx.x % 32;  // THREAD");
        w_.line("const int wg_thread = threadIdx.x % 128;");
        w_.line("(void)" + d[0].var + "; (void)" + d[1].var + "; (void)wg_thread;");
        if (!plan_.pre_grids.empty())
            w_.line("kiln::dev::grid::wait_previous();  // the earlier kernels' writes (this one "
                    "overlaps their tail; the DMA role already loads)");
        for (const auto& [tensor, reg] : plan_.register_operands) {
            const auto& r = plan_.scope.tensors.at(reg);
            w_.line("uint32_t " + reg + "_packed[" + std::to_string(r.shape[1] / 4) +
                    "][4];  // " + reg + " packed as the A registers of the wgmma reading " +
                    tensor + " (they stay live while it is in flight)");
        }
        for (const auto* r : plan_.registers) {
            if (plan_.row_aliases.count(r->name))
                continue;
            w_.line(cuda_type(r->dtype) + " " + r->name + "[" + std::to_string(elements(r->shape)) +
                    "];  // alloc " + r->name + " : REGISTER " +
                    std::string(ir::spelling(r->dtype)) + ir::shape_string(r->shape) +
                    " per thread (" + r->origin + ")");
        }
        w_.line("kiln::dev::mbarrier::PipelineState<kStages> st;");
        if (!once_loads_.empty())
            w_.line("uint32_t tile_phase = 0;  // parity of the tiles this CTA ran");
        tile_loop_head();
        for (const auto* op : plan_.before_loop)
            thread_call(*op);
        if (plan_.single_call_loop())
            pipelined_compute();
        else
            multi_call_loop();
        for (const auto* op : plan_.after_loop)
            thread_call(*op);
        for (const auto& l : once_loads_) {
            if (plan_.loop->loop.limit)
                w_.line("kiln::dev::mbarrier::wait(" + once_barrier(l, "full") +
                        ", tile_phase);  // landed, even where the limited loop ran no iteration");
            w_.line("// the tile is done with " + l.buffer->name + ": the DMA warp may load the next");
            w_.line("if (" + plan_.compute_dims[2].var + " == 0) kiln::dev::mbarrier::arrive(" +
                    once_barrier(l, "empty") + ");");
        }
        if (!once_loads_.empty())
            w_.line("tile_phase ^= 1u;");
        w_.close();
        if (!stores_.empty()) {
            w_.line("// the staging buffers stay allocated until the last TMA stores read them");
            w_.line("if (threadIdx.x % 128 == 0) kiln::dev::tma::store_wait_read<0>();");
        }
    }

    void sync(const event::Op& op) {
        for (const auto& a : lower_refs(plan_, op)) {
            w_.line("// after " + a.ref + ": " + a.why);
            switch (a.kind) {
            case SyncKind::WaitFull: {
                const LoadGroup* g = group_of_copy(a.event);
                if (!full_waited_.count(g->full))
                    w_.line("kiln::dev::mbarrier::wait(&" + g->full + "[st.stage], st.phase);");
                full_waited_.insert(g->full);
                break;
            }
            case SyncKind::WaitOnce:
                w_.line("kiln::dev::mbarrier::wait(" + once_barrier(*once_load(a.event), "full") +
                        ", tile_phase);");
                break;
            case SyncKind::FirstBarrier:
                w_.line("if (" + plan_.loop_var() + " == 0) kiln::dev::named_barrier::sync(" +
                        std::to_string(kComputeBarrierId) + ", " +
                        std::to_string(128 * plan_.compute_warpgroups) + ");");
                break;
            case SyncKind::ComputeBarrier:
                w_.line("kiln::dev::named_barrier::sync(" + std::to_string(kComputeBarrierId) +
                        ", " + std::to_string(128 * plan_.compute_warpgroups) + ");");
                break;
            case SyncKind::WarpSync:
                w_.line("__syncwarp();");
                break;
            case SyncKind::WarpgroupBarrier:
                w_.line("kiln::dev::named_barrier::sync(" +
                        std::to_string(kFirstStagingBarrier + plan_.compute_warpgroups) + " + " +
                        plan_.compute_dims[0].var + ", 128);  // this warpgroup's threads");
                break;
            case SyncKind::Dropped:
            case SyncKind::WaitEmpty:
                break;
            }
        }
    }

    void thread_call(const event::Op& op) {
        w_.open("");
        w_.line(ir_line(op));
        sync(op);
        emit_thread_call(w_, program_, plan_, op, stores_);
        w_.close();
    }

    void pipelined_compute() {
        const event::Op& call = *plan_.loop_calls[0];
        w_.line("int held = -1;  // the stage the wgmmas in flight read");
        w_.line("// " + op_name(*plan_.loop));
        w_.open(k_loop_head());
        w_.line(ir_line(call));
        full_waited_.clear();
        sync(call);
        if (full_waited_.empty())
            unsupported(call, "the wgmma call does not wait for the TMA copies of its iteration");
        emit_wgmma_call(w_, program_, plan_, call, "st.stage");
        w_.line("// release the stage the retired wgmmas read (WAR edge of the DMA copies)" +
                std::string(clustered() ? " in both CTAs" : ""));
        release_held();
        w_.line("held = st.stage;");
        w_.line("st.advance();");
        w_.close();
        w_.line("// " + op_name(*plan_.loop) + " complete: drain the wgmma queue");
        w_.line("kiln::dev::wgmma::wait<0>();");
        for (const auto* r : plan_.registers)
            w_.line("kiln::dev::wgmma::fence_operand(" + r->name + ");");
        release_held();
    }

    // The stage releases of the groups `op` frees, at stage expression `stage`.
    std::vector<std::string> releases(const event::Op& op, const std::string& stage) const {
        std::vector<std::string> out;
        for (const auto& g : groups_)
            if (g.released_by == op.result)
                out.push_back("if (" + plan_.compute_dims[2].var +
                              " == 0) kiln::dev::mbarrier::arrive(&" + g.empty + "[" + stage +
                              "]);  // release " + g.loads[0].buffer->name + "'s stage");
        return out;
    }

    // A loop of several calls (attention): each op in program order after its synchronization;
    // every wgmma batch is drained where it is issued (emit_loop_call), so the call that frees a
    // group's stage releases it right after. The exception is the iteration's last call when it
    // ends with a wgmma batch (P.V): the next iteration issues it right behind its first batch
    // (the scores) and waits for that one only, so it runs on the tensor cores under the
    // softmax; the first statement touching its accumulator (or the end of the loop) retires it
    // and releases its stages then (`deferred_stage`). The first iteration, which owes no batch,
    // is peeled off: issued under a branch, the batch would be in flight across the branch's
    // join, and ptxas waits for it there (C7519).
    void multi_call_loop() {
        const event::Op& last = *plan_.loop_body.back();
        auto deferral = plan_.elided.count(last.result)
                            ? std::nullopt
                            : final_batch(program_, plan_, last, "deferred_stage");
        PendingBatch pending;
        if (!deferral) {
            w_.line("// " + op_name(*plan_.loop));
            w_.open(k_loop_head());
            loop_iteration(pending, nullptr);
            w_.close();
            return;
        }
        // its registers are pinned after the wait, so nothing reading or rewriting them moves
        // above it
        for (const auto& r : deferral->accumulators)
            deferral->retire.push_back("kiln::dev::wgmma::fence_operand(" + r + ");");
        for (const auto& r : deferral->packed)
            deferral->retire.push_back("kiln::dev::wgmma::fence_operand(" + r + ");");
        for (const auto& l : releases(last, "deferred_stage"))
            deferral->retire.push_back(l);
        deferral->retire.push_back("deferred_stage = -1;");
        w_.line("int deferred_stage = -1;  // the stage " + op_name(last) +
                " reads while its issue is deferred or it is in flight");
        const bool limited = plan_.loop->loop.limit != nullptr;
        w_.line("// " + op_name(*plan_.loop) + ", its first iteration peeled");
        w_.open(limited ? "if (" + trip_count() + " > 0)" : "");
        w_.line("const int " + plan_.loop_var() + " = 0;");
        loop_iteration(pending, &*deferral);
        w_.close();
        w_.open(k_loop_head(1));
        loop_iteration(pending, &*deferral);
        w_.close();
        w_.line("// " + op_name(*plan_.loop) + " complete: the last iteration's " + op_name(last));
        if (limited)
            w_.open("if (deferred_stage >= 0)");
        retire_pending(w_, pending, "retired before the loop's results are read");
        if (limited)
            w_.close();
    }

    // One iteration of multi_call_loop's body; `pending` is what the previous one left owed.
    void loop_iteration(PendingBatch& pending, const PendingBatch* deferral) {
        full_waited_.clear();
        DeferredScales scales;
        for (const auto* op : plan_.loop_body) {
            if (plan_.elided.count(op->result)) {
                w_.line(ir_line(*op) + ": elided (its rows are read as quad shuffles of the "
                                       "registers it stores; nothing else reads them)");
                continue;
            }
            w_.open("");
            w_.line(ir_line(*op));
            sync(*op);
            if (emit_loop_call(w_, program_, plan_, *op, "st.stage", stores_, pending,
                               op == plan_.loop_body.back() ? deferral : nullptr, scales)) {
                w_.line("deferred_stage = st.stage;");
            } else {
                for (const auto& l : releases(*op, "st.stage"))
                    w_.line(l);
            }
            w_.close();
        }
        for (const auto& g : groups_) {
            if (!full_waited_.count(g.full))
                unsupported(*g.loads[0].copy, "no compute op of the loop waits for this copy");
            if (std::none_of(plan_.loop_body.begin(), plan_.loop_body.end(),
                             [&](const event::Op* o) { return o->result == g.released_by; }))
                unsupported(*g.loads[0].copy, "the op freeing its stage is not in the loop");
        }
        end_iteration_scales(w_, program_, plan_, scales);
        w_.line("st.advance();");
    }

    // Lane 0 of each compute warp releases stage `held`: in a cluster, the peer's DMA thread
    // multicasts into it too, so the peer's empty barrier hears of it (a plain remote arrive:
    // the readers were wgmmas that already retired, nothing to release at cluster scope).
    void release_held() {
        const std::string lane0 = "held >= 0 && " + plan_.compute_dims[2].var + " == 0";
        if (!clustered()) {
            w_.line("if (" + lane0 + ") kiln::dev::mbarrier::arrive(&empty[held]);");
            return;
        }
        w_.open("if (" + lane0 + ")");
        w_.line("kiln::dev::mbarrier::arrive(&empty[held]);");
        w_.line("kiln::dev::mbarrier::arrive_cluster(&empty[held], cta_rank ^ 1);");
        w_.close();
    }

    // ---- host side: the launch as data (the launcher text is written from it) ----

    static SpecArg tensor_map_arg(int param, const event::TensorDecl& g,
                                  const std::vector<uint32_t>& box) {
        SpecArg a{SpecArg::Kind::TensorMap, param, {g.dtype, {}, {}, box, 128}};
        uint64_t stride = ir::dtype_bytes(g.dtype);
        for (size_t d = g.shape.size(); d-- > 0;) {
            a.map.dims.push_back(g.shape[d]);
            if (d + 1 < g.shape.size())
                a.map.strides_bytes.push_back(stride);
            stride *= g.shape[d];
        }
        return a;
    }

    LaunchSpec launch_spec() const {
        LaunchSpec s{program_.name, {}, {}, {}};
        KernelLaunch k{program_.name,
                       tiles(),
                       plan_.grid->loop.controls.persistent,
                       static_cast<int>(plan_.threads()),
                       smem_total_,
                       {},
                       static_cast<int>(cluster_.size),
                       !plan_.pre_grids.empty()};
        for (const auto* p : plan_.params) {
            const int index = static_cast<int>(s.params.size());
            s.params.push_back({p->name, p->dtype, p->shape,
                                p->param ? p->privilege : ir::Privilege::ReadWrite, !p->param});
            auto map = maps_.find(p->name);
            auto store = stores_.find(p->name);
            if (map != maps_.end())
                k.args.push_back(tensor_map_arg(index, *p, map->second.box));
            else if (store != stores_.end())
                k.args.push_back(tensor_map_arg(index, *p, store->second.box));
            else
                k.args.push_back(SpecArg{SpecArg::Kind::Pointer, index, {}});
        }
        for (const auto& n : size_names()) {
            auto it = program_.sizes.find(n);
            if (it == program_.sizes.end())
                throw DiagnosticError(
                    Diagnostic{{}, "codegen: size '" + n + "' is not a size of " + program_.name});
            s.sizes.emplace_back(n, it->second);
        }
        s.kernels = pre_launches_;
        s.kernels.push_back(std::move(k));
        s.kernels.insert(s.kernels.end(), post_launches_.begin(), post_launches_.end());
        return s;
    }

    const event::EventProgram& program_;
    const EmitOptions& options_;
    KernelPlan plan_;
    CodeWriter w_;
    std::vector<TmaLoad> loads_;
    // Element-wise kernels launched before / after the main kernel, in program order.
    std::vector<KernelLaunch> pre_launches_, post_launches_;
    std::map<std::string, TmaLoad> maps_;     // by global tensor: one tensor map each
    TmaStores stores_; // accumulator stores through shared memory + TMA, by tensor
    ClusterPlan cluster_;
    int64_t barrier_offset_ = 0, staging_offset_ = 0, smem_total_ = 0;
    std::set<std::string> full_waited_; // the full barriers waited in this iteration
    std::vector<LoadGroup> groups_;
    std::vector<TmaLoad> once_loads_;
};

} // namespace

Result<Generated> emit_cuda(const event::EventProgram& program, const EmitOptions& options) {
    auto plan = plan_kernel(program);
    if (!plan)
        return plan.errors();
    try {
        return Emitter(program, options, std::move(*plan)).run();
    } catch (const DiagnosticError& e) {
        return e.diag;
    }
}

} // namespace kiln::codegen
