#pragma once
/// Basic types of Squall: the floating-point type, the Kokkos execution and memory
/// spaces every kernel runs in, and the View aliases the rest of the code uses.
#include <Kokkos_Core.hpp>

namespace squall {

using Real = double;

using ExecSpace = Kokkos::DefaultExecutionSpace;
using MemSpace = ExecSpace::memory_space;
using HostExecSpace = Kokkos::DefaultHostExecutionSpace;
/// Whether kernels run on the host (Serial, OpenMP, Threads): some kernels pick a
/// loop order for CPU caches there and one for coalesced device loads elsewhere.
inline constexpr bool host_backend = Kokkos::SpaceAccessibility<ExecSpace, Kokkos::HostSpace>::accessible;

/// Views in the default (device) memory space. Index order is fixed by these aliases:
/// LayoutRight, so the last index is contiguous.
template <class T>
using DeviceView = Kokkos::View<T, Kokkos::LayoutRight, MemSpace>;

template <class T>
using HostView = Kokkos::View<T, Kokkos::LayoutRight, Kokkos::HostSpace>;

/// True when host code may read and write device Views directly (Serial, OpenMP).
inline constexpr bool device_is_host_accessible =
    Kokkos::SpaceAccessibility<Kokkos::HostSpace, MemSpace>::accessible;

/// True when MPI may be handed device buffers directly: the memory is host memory, or
/// the build declares a GPU-aware MPI (cmake -DSQUALL_GPU_AWARE_MPI=ON).
#ifdef SQUALL_GPU_AWARE_MPI
inline constexpr bool mpi_reads_device_memory = true;
#else
inline constexpr bool mpi_reads_device_memory = device_is_host_accessible;
#endif

}  // namespace squall
