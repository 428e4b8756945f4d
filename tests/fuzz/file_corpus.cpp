// Writes the file readers' seed corpus into OUT_DIR: for r1cs and wtns the
// circom fixtures of DATA_DIR plus small random systems and witnesses; for
// zkey small keys made by the project's own setup, in both H forms.
//   file_fuzz_corpus r1cs|wtns|zkey DATA_DIR OUT_DIR
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include "groth16/setup.hpp"
#include "io/zkey.hpp"
#include "r1cs/input_file.hpp"
#include "r1cs/r1cs_file.hpp"
#include "r1cs/wtns_file.hpp"
#include "random_circuit.hpp"
#include "seed.hpp"

namespace {

using namespace cuzk;
namespace fs = std::filesystem;

void put(const fs::path& path, const std::vector<std::uint8_t>& bytes) {
  std::ofstream f(path, std::ios::binary);
  f.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: %s r1cs|wtns|zkey DATA_DIR OUT_DIR\n", argv[0]);
    return 2;
  }
  const std::string_view kind = argv[1];
  const fs::path data = argv[2], out = argv[3];
  fs::create_directories(out);
  auto rng = test::rng(0xf11e);
  auto circom = [&](const char* stem) { return r1cs::read_r1cs_file(data / (std::string(stem) + ".r1cs")); };
  if (kind == "r1cs") {
    for (const char* stem : {"chain4", "mix3"}) {
      fs::copy_file(data / (std::string(stem) + ".r1cs"), out / (std::string(stem) + ".r1cs"));
      put(out / (std::string(stem) + "-rewritten.r1cs"), r1cs::write_r1cs(circom(stem)));
    }
    for (int i = 0; i < 3; ++i) {
      const auto inst = test::make_random_instance(rng, 3 + i, 1 + i % 2, 2);
      put(out / ("random-" + std::to_string(i) + ".r1cs"),
          r1cs::write_r1cs(r1cs::basic_r1cs_file<curves::bls12_381>{r1cs::header_for(inst.m), inst.m}));
    }
  } else if (kind == "wtns") {
    for (const char* stem : {"chain4", "mix3"})
      fs::copy_file(data / (std::string(stem) + ".wtns"), out / (std::string(stem) + ".wtns"));
    for (int i = 0; i < 3; ++i) {
      const auto inst = test::make_random_instance(rng, 2 + 3 * i, 1, 2);
      put(out / ("random-" + std::to_string(i) + ".wtns"), r1cs::write_wtns(inst.z));
    }
  } else if (kind == "zkey") {
    const auto waste = groth16::basic_toxic_waste<curves::bls12_381>::from_seed("cuzk fuzz corpus");
    put(out / "chain4.zkey", io::write_zkey(groth16::setup(circom("chain4").m, waste)));
    put(out / "mix3-coefficient.zkey",
        io::write_zkey(groth16::setup(circom("mix3").m, waste, groth16::h_form::coefficient)));
    const auto inst = test::make_random_instance(rng, 5, 2, 2);
    put(out / "random.zkey", io::write_zkey(groth16::setup(inst.m, waste)));
  } else {
    std::fprintf(stderr, "%s: unknown reader %s\n", argv[0], argv[1]);
    return 2;
  }
  return 0;
}
