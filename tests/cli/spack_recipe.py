"""The Spack recipe (spack/packages/squall/package.py) loads with the directives Spack
provides, depends on what the build finds (find_package), and passes only CMake options
the project defines. Spack itself is not needed: its directives are stood in for here.

usage: spack_recipe.py SOURCE_DIR"""
import pathlib
import re
import sys
import types

src = pathlib.Path(sys.argv[1])
calls = {"version": [], "variant": [], "depends_on": []}


def directive(name):
    def record(*args, **kwargs):
        calls[name].append((args, kwargs))
    return record


class Spec:
    def __init__(self, variants):
        self.variants = variants

    def satisfies(self, text):
        return self.variants.get(text.lstrip("+"), False)

    def __getitem__(self, name):
        return types.SimpleNamespace(prefix=f"/opt/{name}")


class CMakePackage:
    def define(self, name, value):
        return (name, value)

    def define_from_variant(self, name, variant):
        return (name, self.spec.variants[variant])


class CudaPackage:
    cuda_arch_values = ("80", "90")


stub = types.ModuleType("spack.package")
stub.__dict__.update(CMakePackage=CMakePackage, CudaPackage=CudaPackage,
                     **{name: directive(name) for name in calls})
sys.modules["spack"] = types.ModuleType("spack")
sys.modules["spack.package"] = stub
recipe = {}
exec(compile((src / "spack/packages/squall/package.py").read_text(), "package.py", "exec"), recipe)
Squall = recipe["Squall"]

errors = []
names = {a[0] for a, _ in calls["variant"]}
for wanted in ("openmp", "gpu_aware_mpi", "strict_math"):
    if wanted not in names:
        errors.append(f"no variant {wanted}")
deps = " ".join(a[0] for a, _ in calls["depends_on"])
for wanted in ("mpi", "kokkos", "hdf5+mpi", "netcdf-c+mpi", "tomlplusplus", "cli11", "catch2"):
    if wanted not in deps:
        errors.append(f"no dependency on {wanted}")

package = Squall()
package.spec = Spec({"strict_math": True, "max_tracers": "2", "gpu_aware_mpi": False})
package.run_tests = False
cmake_text = "\n".join(p.read_text() for p in [src / "CMakeLists.txt", *sorted((src / "cmake").glob("*.cmake"))])
for name, _ in package.cmake_args():
    if name != "Kokkos_ROOT" and not re.search(rf"\b{re.escape(name)}\b", cmake_text):
        errors.append(f"cmake_args passes {name}, which CMakeLists.txt does not define")

for e in errors:
    print("FAIL:", e)
if errors:
    sys.exit(1)
print(f"spack recipe: {len(calls['variant'])} variants, {len(calls['depends_on'])} dependencies, "
      f"cmake_args {[n for n, _ in package.cmake_args()]}")
