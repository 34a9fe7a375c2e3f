# Spack recipe for Squall. Use it as a package repository:
#   spack repo add /path/to/squall/spack
#   spack develop --path /path/to/squall squall@main   # or set `git` below to your clone's URL
#   spack install squall@main +cuda cuda_arch=90 +gpu_aware_mpi ^openmpi+cuda
from spack.package import *


class Squall(CMakePackage, CudaPackage):
    """Nodal discontinuous Galerkin large-eddy simulation of the atmosphere on Kokkos and
    MPI: the same bits on any rank count, after any restart, on CPUs and GPUs."""

    # The repository Squall is cloned from; override with your site's mirror.
    git = "file:///path/to/squall"

    version("main", branch="main")

    variant("openmp", default=False, description="Kokkos' OpenMP backend (threads within a rank)")
    variant("gpu_aware_mpi", default=False, when="+cuda",
            description="Hand device buffers straight to MPI (needs a CUDA-aware MPI)")
    variant("strict_math", default=True,
            description="Squall's own exp, log, pow, ...: the same bits on every CPU and GPU")
    variant("max_tracers", default="2", values=[str(n) for n in range(10)], multi=False,
            description="Most passive tracers a run of this build can carry")

    depends_on("cmake@3.20:", type="build")
    depends_on("mpi")
    depends_on("kokkos@3.4:")
    depends_on("kokkos+openmp", when="+openmp")
    depends_on("kokkos+cuda+cuda_lambda+wrapper", when="+cuda")
    for arch in CudaPackage.cuda_arch_values:
        depends_on(f"kokkos cuda_arch={arch}", when=f"+cuda cuda_arch={arch}")
    depends_on("hdf5+mpi")
    depends_on("netcdf-c+mpi")
    depends_on("tomlplusplus")
    depends_on("cli11")
    depends_on("catch2@2", type="test")

    def cmake_args(self):
        return [
            self.define("Kokkos_ROOT", self.spec["kokkos"].prefix),
            self.define("SQUALL_BUILD_TESTS", self.run_tests),
            self.define_from_variant("SQUALL_STRICT_MATH", "strict_math"),
            self.define_from_variant("SQUALL_MAX_TRACERS", "max_tracers"),
            self.define("SQUALL_GPU_AWARE_MPI", self.spec.satisfies("+gpu_aware_mpi")),
        ]
