#include "codegen/launcher.h"

#include "codegen/code_writer.h"
#include "ir/partition.h"

namespace kiln::codegen {
namespace {

template <class T> std::vector<std::string> texts(const std::vector<T>& xs) {
    std::vector<std::string> out;
    for (const auto& x : xs)
        out.push_back(std::to_string(x));
    return out;
}

std::string tma_dtype(ir::DType t) {
    switch (t) {
    case ir::DType::BF16:
        return "CU_TENSOR_MAP_DATA_TYPE_BFLOAT16";
    case ir::DType::F16:
        return "CU_TENSOR_MAP_DATA_TYPE_FLOAT16";
    case ir::DType::F32:
        return "CU_TENSOR_MAP_DATA_TYPE_FLOAT32";
    default:
        return "CU_TENSOR_MAP_DATA_TYPE_UINT8";
    }
}

std::string swizzle_mode(int bytes) {
    return bytes == 0 ? "kiln::dev::swizzle::Mode::None"
                      : "kiln::dev::swizzle::Mode::B" + std::to_string(bytes);
}

bool written(const SpecParam& p) {
    return p.privilege != ir::Privilege::Read;
}

// The launcher's variable for a tensor-map argument (the emitter makes one map per tensor).
std::string map_name(const LaunchSpec& s, const SpecArg& a) {
    return "tm_" + s.params[a.param].name;
}

// A map depends only on its tensor's address (sizes and strides are compiled in), so it is
// encoded again only when the address changes: encoding costs microseconds of host time per
// map, as much as a small kernel runs.
void tensor_map(CodeWriter& w, const LaunchSpec& s, const SpecArg& a) {
    const auto& m = a.map;
    const std::string rank = std::to_string(m.dims.size());
    const std::string& tensor = s.params[a.param].name;
    w.line("static thread_local CUtensorMap " + map_name(s, a) + ";");
    w.line("static thread_local const void* " + map_name(s, a) + "_of = nullptr;");
    w.open("if (" + map_name(s, a) + "_of != " + tensor + ")");
    w.line("// " + s.params[a.param].name + ": boxes of " + join(texts(m.box), " x ") +
           " (innermost first), " +
           (m.swizzle_bytes ? std::to_string(m.swizzle_bytes) + "B swizzle" : "no swizzle"));
    w.line("const uint64_t dims[" + rank + "] = {" + join(texts(m.dims), ", ") + "};");
    w.line("const uint64_t strides[" + std::to_string(m.strides_bytes.size()) + "] = {" +
           join(texts(m.strides_bytes), ", ") + "};");
    w.line("const uint32_t box[" + rank + "] = {" + join(texts(m.box), ", ") + "};");
    w.line("if (!kiln::dev::tma::make_tensor_map<" + rank + ">(&" + map_name(s, a) + ", " +
           tma_dtype(m.dtype) + ", " + s.params[a.param].name + ", dims, strides, box, " +
           swizzle_mode(m.swizzle_bytes) + ")) return 2;");
    w.line(map_name(s, a) + "_of = " + tensor + ";");
    w.close();
}

// A workspace per stream: launches on one stream run in order, so they may share one; launches
// on two streams may overlap, so they must not. Allocated at the first launch on a stream (make
// it before capturing the stream into a CUDA graph: cudaMalloc is not capturable) and kept.
void workspace(CodeWriter& w, const SpecParam& p) {
    w.line("// workspace " + p.name + ": " + std::string(ir::spelling(p.dtype)) +
           ir::shape_string(p.shape) + ", " + std::to_string(p.bytes()) + " B, one per stream");
    w.line("static std::mutex " + p.name + "_lock;");
    w.line("static std::unordered_map<cudaStream_t, void*> " + p.name + "_of;");
    w.line("void* " + p.name + " = nullptr;");
    w.open("");
    w.line("std::lock_guard<std::mutex> hold(" + p.name + "_lock);");
    w.line("void*& slot = " + p.name + "_of[stream];");
    w.line("if (!slot && cudaMalloc(&slot, " + std::to_string(p.bytes()) +
           ") != cudaSuccess) return 4;");
    w.line(p.name + " = slot;");
    w.close();
}

std::string pointer_arg(const SpecParam& p) {
    return "static_cast<" + cuda_type(p.dtype) + "*>(" +
           (written(p) ? p.name : "const_cast<void*>(" + p.name + ")") + ")";
}

// A launch through cudaLaunchKernelEx with attributes: the cluster dimension, and programmatic
// stream serialization for a kernel that overlaps the previous one (it waits for it on the
// device). A persistent cluster grid must be co-resident: GPCs with an odd number of free SMs
// leave some unused, so fewer than SMs / cluster clusters may fit, and the occupancy API says
// how many (extra clusters would run as a second wave).
void attributed_launch(CodeWriter& w, const KernelLaunch& k,
                       const std::vector<std::string>& args) {
    const std::string tiles = std::to_string(k.tiles), size = std::to_string(k.cluster);
    int n = 0;
    w.line("cudaLaunchAttribute attrs[2];");
    if (k.cluster > 1) {
        w.line("attrs[0].id = cudaLaunchAttributeClusterDimension;");
        w.line("attrs[0].val.clusterDim.x = " + size + ";");
        w.line("attrs[0].val.clusterDim.y = 1;");
        w.line("attrs[0].val.clusterDim.z = 1;");
        ++n;
    }
    if (k.overlaps_previous) {
        const std::string a = "attrs[" + std::to_string(n) + "]";
        w.line(a + ".id = cudaLaunchAttributeProgrammaticStreamSerialization;");
        w.line(a + ".val.programmaticStreamSerializationAllowed = 1;");
        ++n;
    }
    w.line("cudaLaunchConfig_t config = {};");
    w.line(k.cluster > 1 ? "config.gridDim = dim3(sms / " + size + " * " + size + ");"
                         : "config.gridDim = dim3(grid);");
    w.line("config.blockDim = dim3(" + std::to_string(k.threads) + ");");
    w.line("config.dynamicSmemBytes = " + std::to_string(k.smem_bytes) + ";");
    w.line("config.stream = stream;");
    w.line("config.attrs = attrs;");
    w.line("config.numAttrs = " + std::to_string(n) + ";");
    if (k.cluster > 1 && k.persistent) {
        w.line("// asked once: the query costs more host time than a small kernel runs");
        w.open("static const int clusters = [&]");
        w.line("int n = 0;");
        w.line("if (cudaOccupancyMaxActiveClusters(&n, " + k.symbol +
               ", &config) != cudaSuccess || n < 1) n = sms / " + size + ";");
        w.line("return n;");
        w.close("();");
        w.line("config.gridDim = dim3((" + tiles + " < clusters ? " + tiles + " : clusters) * " +
               size + ");");
    } else if (k.cluster > 1) {
        w.line("config.gridDim = dim3(" + tiles + " * " + size + ");");
    }
    w.line("if (cudaLaunchKernelEx(&config, " + k.symbol + ", " + join(args, ", ") +
           ") != cudaSuccess) return 3;");
}

void launch(CodeWriter& w, const LaunchSpec& s, const KernelLaunch& k) {
    w.open("");
    w.line("// kernel " + k.symbol + ": " + std::to_string(k.tiles) + " tiles" +
           (k.cluster > 1 ? " of " + std::to_string(k.cluster) + "-CTA clusters" : "") +
           (k.persistent ? k.cluster > 1 ? ", persistent (grid = min(tiles, resident clusters))"
                                         : ", persistent (grid = min(tiles, SMs))"
                         : "") +
           ", " + std::to_string(k.threads) + " threads, " + std::to_string(k.smem_bytes) +
           " B dynamic shared memory");
    std::vector<std::string> args;
    for (const auto& a : k.args) {
        if (a.kind == SpecArg::Kind::TensorMap)
            tensor_map(w, s, a);
        args.push_back(a.kind == SpecArg::Kind::TensorMap ? map_name(s, a)
                                                          : pointer_arg(s.params[a.param]));
    }
    const std::string tiles = std::to_string(k.tiles);
    if (k.cluster == 1)
        w.line(k.persistent ? "const int grid = " + tiles + " < sms ? " + tiles + " : sms;"
                            : "const int grid = " + tiles + ";");
    // once per device and thread, for the same reason
    w.line("static thread_local int smem_set_on = -1;");
    w.open("if (smem_set_on != device)");
    w.line("if (cudaFuncSetAttribute(" + k.symbol +
           ", cudaFuncAttributeMaxDynamicSharedMemorySize, " + std::to_string(k.smem_bytes) +
           ") != cudaSuccess) return 3;");
    w.line("smem_set_on = device;");
    w.close();
    if (k.cluster > 1 || k.overlaps_previous) {
        attributed_launch(w, k, args);
        w.close();
        return;
    }
    w.line(k.symbol + "<<<grid, " + std::to_string(k.threads) + ", " +
           std::to_string(k.smem_bytes) + ", stream>>>(" + join(args, ", ") + ");");
    w.line("if (cudaGetLastError() != cudaSuccess) return 3;");
    w.close();
}

} // namespace

std::string cuda_type(ir::DType t) {
    switch (t) {
    case ir::DType::BF16:
        return "__nv_bfloat16";
    case ir::DType::F16:
        return "__half";
    case ir::DType::F32:
        return "float";
    case ir::DType::I32:
        return "int";
    default:
        return "";
    }
}

std::string launcher_source(const LaunchSpec& s) {
    std::vector<std::string> params, checks, kernels;
    for (const auto& p : s.params)
        if (!p.workspace)
            params.push_back(std::string(written(p) ? "void* " : "const void* ") + p.name);
    for (const auto& [n, v] : s.sizes) {
        params.push_back("int " + n);
        checks.push_back(n + " != " + std::to_string(v));
    }
    params.push_back("cudaStream_t stream");
    for (const auto& k : s.kernels)
        kernels.push_back(k.symbol);
    CodeWriter w;
    w.raw("#if !defined(__CUDACC_RTC__)");
    w.line("// Builds the TMA tensor maps and launches " + join(kernels, ", then ") +
           ". Returns 0, or 1: sizes other than the");
    w.line("// compiled ones (recompile with `kiln compile --size`), 2: a tensor map was refused");
    w.line("// (alignment), 3: a launch failed, 4: a workspace could not be allocated. Written from");
    w.line("// the launch spec (`kiln run --gpu` launches from it).");
    w.open("extern \"C\" int kiln_launch_" + s.program + "(" + join(params, ", ") + ")");
    if (!checks.empty())
        w.line("if (" + join(checks, " || ") + ") return 1;");
    w.line("int device = 0, sms = 0;");
    w.line("cudaGetDevice(&device);");
    w.line("cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);");
    w.line("(void)sms;");
    for (const auto& p : s.params)
        if (p.workspace)
            workspace(w, p);
    for (const auto& k : s.kernels)
        launch(w, s, k);
    w.line("return 0;");
    w.close();
    w.raw("#endif  // !__CUDACC_RTC__");
    return w.text();
}

} // namespace kiln::codegen
