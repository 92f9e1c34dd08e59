#include "render.h"

#include "liveness.h"

#include <algorithm>
#include <fmt/format.h>

namespace kiln::schedule {

namespace {

struct Q {
    int64_t copies, length, prologue_end, steady_end;
};

Q straight_line(const Schedule &s) {
    int64_t c = s.stages();
    return {c, (c - 1) * s.ii + s.length, (c - 1) * s.ii, c * s.ii};
}

char label(size_t v) {
    static const char *letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    return v < 52 ? letters[v] : '?';
}

std::string units_of(const Op &op) {
    std::string u;
    for (const auto &x : op.uses)
        u += (u.empty() ? "" : "+") + x.unit;
    return u;
}

std::string warps_text(const std::vector<int> &w) {
    std::string t;
    for (int x : w)
        t += (t.empty() ? "" : ",") + std::to_string(x);
    return t;
}

} // namespace

std::string render_text(const LoopGraph &g, const Schedule &s) {
    Q q = straight_line(s);
    std::string out;
    out += fmt::format("schedule for '{}' on {}: II = {}, L = {}, {} stage(s){}\n", s.graph,
                       s.machine, s.ii, s.length, s.stages(), s.optimal ? " (proven optimal)" : "");
    out += fmt::format("  MII = {} (resource {}{}, recurrence {}); modulo ILP alone: II = {}, "
                       "L = {}\n",
                       s.mii.mii(), s.mii.resource,
                       s.mii.resource_unit.empty() ? "" : " on " + s.mii.resource_unit,
                       s.mii.recurrence, s.modulo_ii, s.modulo_length);
    if (!s.cost_map.empty()) {
        out += "  normalized costs:";
        for (auto [a, b] : s.cost_map)
            if (a)
                out += fmt::format(" {}->{}", a, b);
        out += fmt::format(" (max ratio error {})\n", s.ratio_error);
    }
    out += fmt::format("  solve: normalize {:.3f}s, modulo ILP {:.3f}s, joint SMT {:.3f}s, total "
                       "{:.3f}s ({} queries)\n\n",
                       s.normalize_s, s.modulo_s, s.joint_s, s.total_s, s.attempts.size());
    auto life = lifetimes(g, s.ii, s.start);
    out += fmt::format("  {:<3} {:<16} {:<10} {:>5} {:>5} {:>4}  {:<6} {}\n", "", "op", "unit",
                       "cycle", "stage", "slot", "warps", "live");
    for (size_t v = 0; v < g.ops.size(); ++v)
        out +=
            fmt::format("  {:<3} {:<16} {:<10} {:>5} {:>5} {:>4}  {:<6} [{}, {}){}\n", label(v),
                        g.ops[v].name, units_of(g.ops[v]), s.start[v], s.stage(static_cast<int>(v)),
                        s.slot(static_cast<int>(v)), warps_text(s.warps[v]), life[v].begin,
                        life[v].end, g.ops[v].variable_latency ? "  variable latency" : "");
    out += "\n  registers per warp (steady-state peak):";
    for (size_t w = 0; w < s.warp_register_peak.size(); ++w)
        out += fmt::format(" w{}={}", w, s.warp_register_peak[w]);
    out += "\n";
    const char *names[] = {"prologue", "steady state (loop body)", "epilogue"};
    int64_t bounds[] = {0, q.prologue_end, q.steady_end, q.length};
    for (int sec = 0; sec < 3; ++sec) {
        out += fmt::format("\n  {} [{}, {}):\n", names[sec], bounds[sec], bounds[sec + 1]);
        for (int64_t t = bounds[sec]; t < bounds[sec + 1]; ++t) {
            std::string line;
            for (int64_t i = 0; i < q.copies; ++i)
                for (size_t v = 0; v < g.ops.size(); ++v)
                    if (s.start[v] + i * s.ii == t)
                        line += fmt::format(" {}[i{}]@w{}", g.ops[v].name,
                                            sec == 1 ? fmt::format("{:+}", i - (q.copies - 1))
                                                     : fmt::format("={}", i),
                                            warps_text(s.warps[v]));
            if (!line.empty())
                out += fmt::format("    t={:<3}{}\n", t, line);
        }
    }
    return out;
}

std::string render_ascii(const LoopGraph &g, const Schedule &s) {
    Q q = straight_line(s);
    std::string out;
    auto header = [&]() {
        // Two digit rows (tens, ones) keep every column two characters wide.
        std::string tens = fmt::format("{:<8}", "cycle");
        std::string h = fmt::format("{:<8}", "");
        for (int64_t t = 0; t < q.length; ++t) {
            tens += t % 10 == 0 && t > 0 ? fmt::format("{:<2}", (t / 10) % 10) : "  ";
            h += fmt::format("{:<2}", t % 10);
        }
        h = (q.length > 10 ? tens + "\n" : "") + h;
        std::string sec = fmt::format("{:<8}", "");
        for (int64_t t = 0; t < q.length; ++t)
            sec += t < q.prologue_end ? "p " : t < q.steady_end ? "S " : "e ";
        return h + "\n" + sec + "\n";
    };
    out += header();
    // `busy(v)`: cycles v occupies the row (0: not on it) — in flight for a warp, the
    // reservation-table occupancy for a unit.
    auto row = [&](const std::string &name, auto &&busy) {
        std::vector<std::string> cells(q.length, "..");
        for (size_t v = 0; v < g.ops.size(); ++v) {
            int64_t dur = busy(v);
            if (dur <= 0)
                continue;
            for (int64_t i = 0; i < q.copies; ++i)
                for (int64_t c = 0; c < dur; ++c) {
                    int64_t t = s.start[v] + i * s.ii + c;
                    if (t >= q.length)
                        continue;
                    std::string cell = fmt::format("{}{}", label(v), i % 10);
                    cells[t] = cells[t] == ".." ? cell : "**";
                }
        }
        std::string line = fmt::format("{:<8}", name);
        for (const auto &c : cells)
            line += c;
        return line + "\n";
    };
    for (int w = 0; w < s.num_warps; ++w)
        out += row(fmt::format("warp {}", w), [&](size_t v) -> int64_t {
            bool on = std::find(s.warps[v].begin(), s.warps[v].end(), w) != s.warps[v].end();
            return on ? std::max<int64_t>(1, g.ops[v].cycles()) : 0;
        });
    std::vector<std::string> units;
    for (const auto &op : g.ops)
        for (const auto &u : op.uses)
            if (std::find(units.begin(), units.end(), u.unit) == units.end())
                units.push_back(u.unit);
    for (const auto &u : units)
        out += row(u, [&](size_t v) { return g.ops[v].occupancy(u); });
    out += "legend:";
    for (size_t v = 0; v < g.ops.size(); ++v)
        out += fmt::format(" {}={}", label(v), g.ops[v].name);
    out += "; digit = copy of the iteration; ** = overlap; p/S/e = prologue/steady/epilogue\n";
    return out;
}

std::string render_svg(const LoopGraph &g, const Schedule &s) {
    Q q = straight_line(s);
    const int cw = 40, rh = 28, left = 90, top = 30;
    const int rows = s.num_warps;
    int width = left + static_cast<int>(q.length) * cw + 20;
    int height = top + rows * rh + 40 + 20 * static_cast<int>((g.ops.size() + 5) / 6);
    std::string out =
        fmt::format("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" "
                    "font-family=\"monospace\" font-size=\"11\">\n",
                    width, height);
    out += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"#f4f4ff\" "
                       "stroke=\"#333\" stroke-dasharray=\"4 3\"/>\n",
                       left + q.prologue_end * cw, top - 8, s.ii * cw, rows * rh + 8);
    out += fmt::format("<text x=\"{}\" y=\"{}\">steady state</text>\n", left + q.prologue_end * cw,
                       top - 12);
    for (int64_t t = 0; t < q.length; ++t)
        out += fmt::format("<text x=\"{}\" y=\"{}\" fill=\"#666\">{}</text>\n", left + t * cw + 2,
                           top + rows * rh + 14, t);
    auto color = [](size_t v) {
        static const char *palette[] = {"#e377c2", "#2ca02c", "#1f77b4", "#ff7f0e", "#9467bd",
                                        "#8c564b", "#17becf", "#bcbd22", "#d62728", "#7f7f7f"};
        return palette[v % 10];
    };
    for (int w = 0; w < rows; ++w) {
        int y = top + w * rh;
        out += fmt::format("<text x=\"4\" y=\"{}\">warp {}</text>\n", y + 17, w);
        for (size_t v = 0; v < g.ops.size(); ++v) {
            if (std::find(s.warps[v].begin(), s.warps[v].end(), w) == s.warps[v].end())
                continue;
            int64_t dur = std::max<int64_t>(1, g.ops[v].cycles());
            for (int64_t i = 0; i < q.copies; ++i) {
                int64_t t = s.start[v] + i * s.ii;
                out += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" "
                                   "fill=\"{}\" fill-opacity=\"{}\" stroke=\"#222\"/>\n",
                                   left + t * cw, y + 2, dur * cw - 2, rh - 4, color(v),
                                   i % 2 ? 0.55 : 0.9);
                out += fmt::format("<text x=\"{}\" y=\"{}\">{}[{}]</text>\n", left + t * cw + 3,
                                   y + 17, g.ops[v].name, i);
            }
        }
    }
    for (size_t v = 0; v < g.ops.size(); ++v) {
        int x = 4 + static_cast<int>(v % 6) * 120, y = top + rows * rh + 34 + int(v / 6) * 20;
        out += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"12\" height=\"12\" fill=\"{}\"/>"
                           "<text x=\"{}\" y=\"{}\">{}</text>\n",
                           x, y - 10, color(v), x + 16, y, g.ops[v].name);
    }
    out += "</svg>\n";
    return out;
}

} // namespace kiln::schedule
