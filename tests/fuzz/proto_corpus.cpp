// Writes the fuzzer's seed corpus: a few valid encodings of every message
// kind (random contents from the test seed) into the directory argv[1].
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "proto/codec.hpp"
#include "proto/names.hpp"
#include "random_message.hpp"
#include "seed.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s DIR\n", argv[0]);
    return 2;
  }
  const std::filesystem::path dir = argv[1];
  std::filesystem::create_directories(dir);
  auto rng = cuzk::test::rng(0xc0de);
  cuzk::test::message_gen gen(rng);
  for (std::size_t kind = 0; kind < cuzk::test::message_gen::kinds; ++kind) {
    for (int i = 0; i < 3; ++i) {
      const auto m = gen.of_kind(kind);
      const auto bytes = cuzk::proto::encode(m);
      std::ofstream f(dir / (std::string(cuzk::proto::name(m.body)) + "-" + std::to_string(i)), std::ios::binary);
      f.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    }
  }
  return 0;
}
