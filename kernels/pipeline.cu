// Kernels of the copy + compute pipeline, compiled at run time by CuPy (NVRTC).
// extern "C" keeps the names plain, so CUPTI, Nsight Systems and the timeline show
// "fma_chain" rather than a mangled symbol.

// The compute kernel of the pipeline: per element, v = v * 0.999f + 0.001f repeated
// `iters` times (a chain of dependent FMAs: pure arithmetic, no extra memory traffic).
// Launched with min(ceil(n / 256), 8 * SMs) blocks of 256 threads and a grid-stride loop,
// as in the H200 reference measurements, so one launch fills every SM.
extern "C" __global__ void fma_chain(float* data, unsigned long long n, int iters)
{
    unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;
    for (unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
         i < n; i += stride) {
        float v = data[i];
        for (int k = 0; k < iters; ++k) {
            v = v * 0.999f + 0.001f;
        }
        data[i] = v;
    }
}

// The kernel of Mark Harris, "How to Overlap Data Transfers in CUDA C/C++" (2012):
// a[i] += sqrt(sin(x)^2 + cos(x)^2) with x = (float)i, i the index in the whole buffer
// (`offset` is where this chunk starts). One thread per element, as in the post.
extern "C" __global__ void sincos_sqrt(float* data, unsigned long long n,
                                        unsigned long long offset)
{
    unsigned long long local = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (local < n) {
        float x = (float)(offset + local);
        float s = sinf(x);
        float c = cosf(x);
        data[local] = data[local] + sqrtf(s * s + c * c);
    }
}

// A memory-bound kernel: dst = alpha * src, one read and one write per element.
// Used to measure the device memory bandwidth next to the PCIe copies.
extern "C" __global__ void scale_copy(const float* __restrict__ src, float* __restrict__ dst,
                                     unsigned long long n, float alpha)
{
    unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;
    for (unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
         i < n; i += stride) {
        dst[i] = alpha * src[i];
    }
}
