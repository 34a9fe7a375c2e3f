#pragma once
/// Horizontal statistics against height, from the gridded solution: means of u, v, w,
/// theta, T, p, rho; variances u'u', v'v', w'w', theta'theta'; resolved fluxes w'theta',
/// u'w', v'w' (primes: deviations from the level's mean), and with viscous terms the
/// modelled (subgrid) fluxes next to them. Every sum is a reproducible
/// global sum, so the profiles have the same bits on any number of ranks.
#include <mpi.h>

#include <string>

#include "core/config.hpp"
#include "solver/field_output.hpp"

namespace squall {

/// A fresh run starts `path` anew (rank 0 removes an earlier run's file, which may have
/// another number of levels); a restarted run appends to it.
void start_profiles(const std::string& path, bool restarted, MPI_Comm comm);

/// The modelled (subgrid: eddy and molecular) fluxes on the grid of GridValues, in the
/// order of dg::SubgridFlux (DgOperator::subgrid_fluxes), for profiles.nc.
struct SubgridProfiles {
  bool moist = false;                       ///< the heat flux is of theta_li, and there is a theta_v flux
  std::vector<std::string> scalars;         ///< the scalars' names: "qt" in moist air, then the tracers'
  std::vector<std::string> scalar_units;
  std::vector<std::vector<double>> field;   ///< one per quantity, indexed as GridValues::field
};

/// Further quantities of the operator's, on the grid of GridValues, whose horizontal
/// means go into profiles.nc (the radiative flux).
struct NodeProfile {
  std::string name, long_name, units;
  std::vector<double> field;  ///< indexed as GridValues::field
};

/// Computes the profiles (collective) and appends them to `path` (rank 0). With
/// `subgrid`, also the horizontal means of the modelled fluxes next to the resolved ones,
/// and those of `further`.
void write_profiles(const std::string& path, const physics::VariableInfo& info, const GridValues& g, double time,
                    MPI_Comm comm, const std::string& case_name, const std::string& time_units,
                    const SubgridProfiles* subgrid = nullptr, const std::vector<NodeProfile>& further = {});

/// output.profiles_mean_window: rank 0 writes output_dir/profiles_mean.nc, the time means
/// of profiles.nc over the window (io::write_profile_means), and says so; every rank
/// learns whether it failed and throws the same RunError (collective).
void write_mean_profiles(const std::string& output_dir, const Config& config, MPI_Comm comm);

}  // namespace squall
