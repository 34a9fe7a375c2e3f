#include "solver/profiles.hpp"

#include <cstdio>
#include <filesystem>

#include "core/error.hpp"
#include "core/log.hpp"
#include "core/parallel_env.hpp"
#include "core/reproducible_sum.hpp"
#include "io/netcdf_profiles.hpp"

namespace squall {
namespace {

using F = dg::Equations::Derived;

/// Sums of f(point) over each local level, reproducibly reduced over ranks, divided by
/// the number of points per global level.
template <class Fn>
std::vector<std::vector<double>> level_means(const GridValues& g, int quantities, MPI_Comm comm, const Fn& f) {
  const size_t levels = g.axes[2].size();
  std::vector<ExactSum> sums(levels * quantities);
  std::vector<double> values(quantities);
  for (size_t k = 0; k < g.size[2]; ++k)
    for (size_t j = 0; j < g.size[1]; ++j)
      for (size_t i = 0; i < g.size[0]; ++i) {
        f(i + g.size[0] * (j + g.size[1] * k), g.start[2] + k, values.data());
        for (int q = 0; q < quantities; ++q) sums[(g.start[2] + k) * quantities + q].add(values[q]);
      }
  allreduce(comm, sums);
  const double per_level = static_cast<double>(g.axes[0].size() * g.axes[1].size());
  std::vector<std::vector<double>> out(quantities, std::vector<double>(levels));
  for (size_t k = 0; k < levels; ++k)
    for (int q = 0; q < quantities; ++q) out[q][k] = sums[k * quantities + q].value() / per_level;
  return out;
}

/// The units of the square of a quantity in `units` (CF/UDUNITS strings: "K" -> "K2",
/// "kg kg-1" -> "kg2 kg-2", "1" -> "1").
std::string squared_units(const std::string& units) {
  if (units == "1") return units;
  std::string out, word;
  const auto flush = [&]() {
    if (word.empty()) return;
    std::size_t digit = word.find_first_of("-0123456789");
    const std::string unit = word.substr(0, digit);
    const int power = digit == std::string::npos ? 1 : std::stoi(word.substr(digit));
    if (!out.empty()) out += ' ';
    out += unit + std::to_string(2 * power);
    word.clear();
  };
  for (char c : units) {
    if (c == ' ') flush();
    else word += c;
  }
  flush();
  return out;
}
/// The units of a vertical flux w'c' of a quantity in `units`.
std::string flux_units(const std::string& units) { return units == "1" ? "m s-1" : units + " m s-1"; }

}  // namespace

void start_profiles(const std::string& path, bool restarted, MPI_Comm comm) {
  if (restarted) return;
  const CollectiveOutcome removed = collective(comm, [&] {
    if (comm_rank(comm) != 0) return;
    std::error_code ec;
    std::filesystem::remove(path, ec);
    if (ec) throw RunError("cannot replace '" + path + "' of an earlier run: " + ec.message());
  });
  if (!removed.ok()) throw RunError(removed.message);
}

void write_profiles(const std::string& path, const physics::VariableInfo& info, const GridValues& g, double time,
                    MPI_Comm comm, const std::string& case_name, const std::string& time_units,
                    const SubgridProfiles* subgrid, const std::vector<NodeProfile>& further) {
  // The dry fields, then every further derived field (the tracers' mixing ratios; moist
  // air's water and its potential temperatures), from f_tracer on.
  const int tracers = static_cast<int>(info.derived.size()) - F::f_tracer;
  std::vector<int> mean_fields{F::f_u, F::f_v, F::f_w, F::f_theta, F::f_T, F::f_p, F::f_rho};
  for (int t = 0; t < tracers; ++t) mean_fields.push_back(F::f_tracer + t);
  const int nmeans = static_cast<int>(mean_fields.size());
  const auto means = level_means(g, nmeans, comm, [&](size_t at, size_t, double* out) {
    for (int q = 0; q < nmeans; ++q) out[q] = g.field[mean_fields[q]][at];
  });
  const auto& mu = means[0];
  const auto& mv = means[1];
  const auto& mw = means[2];
  const auto& mth = means[3];
  const auto second = level_means(g, 8 + 2 * tracers, comm, [&](size_t at, size_t k, double* out) {
    const double u = g.field[F::f_u][at] - mu[k], v = g.field[F::f_v][at] - mv[k];
    const double w = g.field[F::f_w][at] - mw[k], th = g.field[F::f_theta][at] - mth[k];
    out[0] = u * u, out[1] = v * v, out[2] = w * w, out[3] = th * th;
    out[4] = w * th, out[5] = u * w, out[6] = v * w;
    for (int t = 0; t < tracers; ++t) {
      const double c = g.field[F::f_tracer + t][at] - means[7 + t][k];
      out[7 + 2 * t] = c * c, out[8 + 2 * t] = w * c;
    }
    out[7 + 2 * tracers] = w * w * w;
  });
  // Moist air: the cloud fraction of each level, the share of its points with
  // q_l > 1e-5 kg/kg (the intercomparisons' threshold).
  int ql_field = -1;
  for (size_t f = 0; f < info.derived.size(); ++f)
    if (info.derived[f].name == "ql") ql_field = static_cast<int>(f);
  std::vector<double> cloud_fraction;
  if (ql_field >= 0)
    cloud_fraction = level_means(g, 1, comm, [&](size_t at, size_t, double* out) {
      out[0] = g.field[ql_field][at] > 1e-5 ? 1.0 : 0.0;
    })[0];
  std::vector<std::vector<double>> modelled;
  if (subgrid) {
    const int count = static_cast<int>(subgrid->field.size());
    modelled = level_means(g, count, comm, [&](size_t at, size_t, double* out) {
      for (int c = 0; c < count; ++c) out[c] = subgrid->field[c][at];
    });
  }
  std::vector<io::ProfileVariable> variables{
      {"u", "horizontal mean of u", "eastward_wind", "m s-1", means[0]},
      {"v", "horizontal mean of v", "northward_wind", "m s-1", means[1]},
      {"w", "horizontal mean of w", "upward_air_velocity", "m s-1", means[2]},
      {"theta", "horizontal mean of potential temperature", "air_potential_temperature", "K", means[3]},
      {"T", "horizontal mean of temperature", "air_temperature", "K", means[4]},
      {"p", "horizontal mean of pressure", "air_pressure", "Pa", means[5]},
      {"rho", "horizontal mean of density", "air_density", "kg m-3", means[6]},
      {"u_u", "variance u'u'", "", "m2 s-2", second[0]},
      {"v_v", "variance v'v'", "", "m2 s-2", second[1]},
      {"w_w", "variance w'w'", "", "m2 s-2", second[2]},
      {"w_w_w", "third moment w'w'w'", "", "m3 s-3", second[7 + 2 * tracers]},
      {"theta_theta", "variance theta'theta'", "", "K2", second[3]},
      {"w_theta", "resolved vertical flux w'theta'", "", "K m s-1", second[4]},
      {"u_w", "resolved momentum flux u'w'", "", "m2 s-2", second[5]},
      {"v_w", "resolved momentum flux v'w'", "", "m2 s-2", second[6]},
  };
  for (int t = 0; t < tracers; ++t) {
    const physics::FieldInfo& f = info.derived[F::f_tracer + t];
    const std::string& name = f.name;
    variables.push_back({name, "horizontal mean of " + f.long_name, "", f.units, means[7 + t]});
    variables.push_back({name + "_" + name, "variance " + name + "'" + name + "'", "", squared_units(f.units),
                         second[7 + 2 * t]});
    variables.push_back({"w_" + name, "resolved vertical flux w'" + name + "'", "", flux_units(f.units),
                         second[8 + 2 * t]});
  }
  if (ql_field >= 0)
    variables.push_back({"cloud_fraction", "fraction of the level with q_l > 1e-5 kg/kg",
                         "cloud_area_fraction_in_atmosphere_layer", "1", cloud_fraction});
  if (subgrid) {
    using S = dg::SubgridFlux;
    const std::string heat = subgrid->moist ? "theta_li" : "theta";
    variables.push_back({"nu_t", "horizontal mean of the eddy viscosity", "", "m2 s-1", modelled[S::nu_t]});
    variables.push_back({"u_w_sgs", "subgrid momentum flux u'w' (eddy and molecular stress)", "", "m2 s-2",
                         modelled[S::u_w]});
    variables.push_back({"v_w_sgs", "subgrid momentum flux v'w' (eddy and molecular stress)", "", "m2 s-2",
                         modelled[S::v_w]});
    variables.push_back({"w_" + heat + "_sgs", "subgrid vertical flux w'" + heat + "' (the heat flux over rho c_p Pi)",
                         "", "K m s-1", modelled[S::w_theta]});
    if (subgrid->moist)
      variables.push_back({"w_theta_v_sgs", "subgrid vertical flux w'theta_v' of its theta_li and q_t fluxes", "",
                           "K m s-1", modelled[S::w_theta_rho]});
    for (size_t t = 0; t < subgrid->scalars.size(); ++t) {
      const std::string& name = subgrid->scalars[t];
      variables.push_back({"w_" + name + "_sgs", "subgrid vertical flux w'" + name + "'", "",
                           flux_units(subgrid->scalar_units[t]), modelled[S::w_scalar + t]});
    }
  }
  if (!further.empty()) {
    const int count = static_cast<int>(further.size());
    const auto m = level_means(g, count, comm, [&](size_t at, size_t, double* out) {
      for (int c = 0; c < count; ++c) out[c] = further[c].field[at];
    });
    for (int c = 0; c < count; ++c)
      variables.push_back({further[c].name, further[c].long_name, "", further[c].units, m[c]});
  }
  // Rank 0 appends the record; every rank learns whether it could (a full disk), so none
  // goes on alone into the next collective call.
  const CollectiveOutcome written = collective(comm, [&] {
    if (comm_rank(comm) == 0)
      io::append_profiles(path, g.axes[2], time, variables, "Squall " + case_name + " profiles", time_units,
                          !g.altitude.empty());
  });
  if (!written.ok()) throw RunError(written.message);
}

void write_mean_profiles(const std::string& output_dir, const Config& config, MPI_Comm comm) {
  const auto& w = config.output.profiles_mean_window;
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  std::string error;
  int records = 0;
  if (rank == 0) {
    try {
      records = io::write_profile_means(output_dir + "/profiles.nc", output_dir + "/profiles_mean.nc", w[0], w[1]);
    } catch (const RunError& e) {
      error = e.what();
    }
  }
  int length = static_cast<int>(error.size());
  MPI_Bcast(&length, 1, MPI_INT, 0, comm);
  error.resize(length);
  MPI_Bcast(error.data(), length, MPI_CHAR, 0, comm);
  if (!error.empty()) throw RunError(error);
  if (rank != 0) return;
  char window[96];
  std::snprintf(window, sizeof window, "%g-%g s", w[0], w[1]);
  if (records == 0)
    log::warn(std::string("no profiles in output.profiles_mean_window (") + window + "): no profiles_mean.nc");
  else
    log::info("wrote " + output_dir + "/profiles_mean.nc: the mean of " + std::to_string(records) +
              " profile times in " + window);
}

}  // namespace squall
