// run_dg<2>, in a file of its own so the orders compile in parallel.
#include "solver/simulation_impl.hpp"

template void squall::run_dg<2>(const squall::RunContext&);
