// run_dg<4>, in a file of its own so the orders compile in parallel.
#include "solver/simulation_impl.hpp"

template void squall::run_dg<4>(const squall::RunContext&);
