"""A fields file opens in ParaView's CF NetCDF reader with its default settings (spherical
coordinates on) as the Cartesian box it is: the domain's bounds, the fields as point data.
Run with pvpython: paraview_box.py FIELDS_NC XMAX YMAX ZMAX"""
import sys
from paraview.simple import NetCDFReader

path, extent = sys.argv[1], [float(v) for v in sys.argv[2:5]]
reader = NetCDFReader(FileName=[path])
reader.UpdatePipeline()
info = reader.GetDataInformation()
bounds = info.GetBounds()
arrays = sorted(reader.PointData.GetArray(i).GetName() for i in range(len(reader.PointData)))
print("ParaView:", info.GetDataSetTypeAsString(), "bounds", bounds, "point arrays", arrays)
for d in range(3):
    lo, hi = bounds[2 * d], bounds[2 * d + 1]
    assert 0 <= lo < hi <= extent[d], f"direction {'xyz'[d]}: bounds {lo}..{hi} outside the box 0..{extent[d]}"
for name in ("rho", "u", "w", "theta", "p", "T"):
    assert name in arrays, f"{name} is not a point array: {arrays}"
