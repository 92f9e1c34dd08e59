#include "runtime/kernel_launch.h"

#include "ir/partition.h"

namespace kiln::runtime {
namespace {

CUtensorMapDataType tma_dtype(ir::DType t) {
    switch (t) {
    case ir::DType::BF16:
        return CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
    case ir::DType::F16:
        return CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
    case ir::DType::F32:
        return CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
    case ir::DType::I32:
        return CU_TENSOR_MAP_DATA_TYPE_INT32;
    default:
        return CU_TENSOR_MAP_DATA_TYPE_UINT8;
    }
}

CUtensorMapSwizzle tma_swizzle(int bytes) {
    switch (bytes) {
    case 32:
        return CU_TENSOR_MAP_SWIZZLE_32B;
    case 64:
        return CU_TENSOR_MAP_SWIZZLE_64B;
    case 128:
        return CU_TENSOR_MAP_SWIZZLE_128B;
    default:
        return CU_TENSOR_MAP_SWIZZLE_NONE;
    }
}

std::string map_of(const codegen::SpecParam& p) {
    return "tensor map of " + p.name + " " + ir::shape_string(p.shape) + ": ";
}

// The TMA rules the spec alone decides, checked here so the message names the tensor and the
// rule (the driver's own error only says "invalid value").
std::optional<Diagnostic> check_tma_rules(const codegen::SpecParam& p,
                                          const codegen::SpecTensorMap& m) {
    for (std::size_t i = 0; i < m.strides_bytes.size(); ++i)
        if (m.strides_bytes[i] % 16 != 0)
            return Diagnostic{{},
                              map_of(p) + "the stride of dimension " + std::to_string(i + 1) +
                                  " (innermost first) is " + std::to_string(m.strides_bytes[i]) +
                                  " bytes, not a multiple of 16 as the TMA requires "
                                  "(make the innermost extent a multiple of " +
                                  std::to_string(16 / ir::dtype_bytes(m.dtype)) + ")"};
    for (auto b : m.box)
        if (b == 0 || b > 256)
            return Diagnostic{{},
                              map_of(p) + "box extent " + std::to_string(b) + " outside 1..256"};
    return std::nullopt;
}

std::optional<Diagnostic> encode(Driver& d, CUtensorMap& map, const codegen::SpecParam& p,
                                 const codegen::SpecTensorMap& m, CUdeviceptr base) {
    if (base % 16 != 0)
        return Diagnostic{{}, map_of(p) + "the base address is not 16-byte aligned"};
    std::vector<cuuint32_t> element_strides(m.dims.size(), 1);
    return d.check(d.encode_tiled(&map, tma_dtype(m.dtype), static_cast<cuuint32_t>(m.dims.size()),
                                  reinterpret_cast<void*>(base), m.dims.data(),
                                  m.strides_bytes.data(), m.box.data(), element_strides.data(),
                                  CU_TENSOR_MAP_INTERLEAVE_NONE, tma_swizzle(m.swizzle_bytes),
                                  CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                                  CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE),
                   "cuTensorMapEncodeTiled for " + p.name);
}

} // namespace

std::optional<Diagnostic> check_tensor_maps(const codegen::LaunchSpec& spec) {
    for (const auto& k : spec.kernels)
        for (const auto& a : k.args)
            if (a.kind == codegen::SpecArg::Kind::TensorMap)
                if (auto e = check_tma_rules(spec.params[a.param], a.map))
                    return e;
    return std::nullopt;
}

Result<PreparedLaunch> PreparedLaunch::prepare(Driver& d, const KernelModule& module,
                                               const codegen::LaunchSpec& spec,
                                               const std::vector<CUdeviceptr>& params) {
    PreparedLaunch out;
    out.driver_ = &d;
    for (std::size_t i = 0; i < spec.kernels.size(); ++i) {
        const auto& k = spec.kernels[i];
        Kernel kernel{module.function(i),
                      k.symbol,
                      1,
                      static_cast<unsigned>(k.threads),
                      static_cast<unsigned>(k.smem_bytes),
                      static_cast<unsigned>(k.cluster),
                      k.overlaps_previous,
                      std::vector<CUtensorMap>(k.args.size()),
                      std::vector<CUdeviceptr>(k.args.size()),
                      {}};
        kernel.grid = static_cast<unsigned>(k.grid(resident_clusters(d, kernel)));
        for (std::size_t a = 0; a < k.args.size(); ++a) {
            const auto& arg = k.args[a];
            const CUdeviceptr base = params[arg.param];
            if (arg.kind == codegen::SpecArg::Kind::Pointer) {
                kernel.pointers[a] = base;
                kernel.args.push_back(&kernel.pointers[a]);
                continue;
            }
            if (auto e = check_tma_rules(spec.params[arg.param], arg.map))
                return *e;
            if (auto e = encode(d, kernel.maps[a], spec.params[arg.param], arg.map, base))
                return *e;
            kernel.args.push_back(&kernel.maps[a]);
        }
        out.kernels_.push_back(std::move(kernel)); // moving keeps the vectors' buffers
    }
    return out;
}

std::optional<Diagnostic> PreparedLaunch::enqueue(CUstream stream) const {
    for (const auto& k : kernels_) {
        auto args = k.args; // cuLaunchKernel takes a non-const array
        CUresult r = CUDA_SUCCESS;
        if (k.cluster > 1 || k.overlaps_previous) {
            CUlaunchAttribute attrs[2];
            CUlaunchConfig config = launch_config(k, k.grid, stream, attrs);
            r = driver_->launch_kernel_ex(&config, k.function, args.data(), nullptr);
        } else {
            r = driver_->launch_kernel(k.function, k.grid, 1, 1, k.threads, 1, 1, k.smem, stream,
                                       args.data(), nullptr);
        }
        if (auto e = driver_->check(r, "launching " + k.symbol))
            return e;
    }
    return std::nullopt;
}

CUlaunchConfig PreparedLaunch::launch_config(const Kernel& k, unsigned grid, CUstream stream,
                                             CUlaunchAttribute (&attrs)[2]) {
    unsigned n = 0;
    if (k.cluster > 1) {
        attrs[n] = {};
        attrs[n].id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
        attrs[n].value.clusterDim.x = k.cluster;
        attrs[n].value.clusterDim.y = 1;
        attrs[n].value.clusterDim.z = 1;
        ++n;
    }
    if (k.overlaps_previous) {
        attrs[n] = {};
        attrs[n].id = CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION;
        attrs[n].value.programmaticStreamSerializationAllowed = 1;
        ++n;
    }
    CUlaunchConfig c{};
    c.gridDimX = grid;
    c.gridDimY = c.gridDimZ = 1;
    c.blockDimX = k.threads;
    c.blockDimY = c.blockDimZ = 1;
    c.sharedMemBytes = k.smem;
    c.hStream = stream;
    c.attrs = attrs;
    c.numAttrs = n;
    return c;
}

// How many of the kernel's clusters fit on the device at once (CTAs when it has no cluster):
// GPCs with an odd number of free SMs leave some unused, so a persistent grid of SMs / 2 pairs
// would run partly as a second wave; the occupancy API knows (SMs / cluster if it fails).
int64_t PreparedLaunch::resident_clusters(Driver& d, const Kernel& k) {
    if (k.cluster == 1)
        return d.device.sms;
    const int64_t fallback = d.device.sms / k.cluster;
    CUlaunchAttribute attrs[2];
    CUlaunchConfig config =
        launch_config(k, static_cast<unsigned>(fallback * k.cluster), nullptr, attrs);
    int clusters = 0;
    if (d.max_active_clusters(&clusters, k.function, &config) != CUDA_SUCCESS || clusters < 1)
        return fallback;
    return clusters;
}

} // namespace kiln::runtime
