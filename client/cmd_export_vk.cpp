#include "commands.hpp"
#include "io/snarkjs_json.hpp"
#include "io/zkey.hpp"

namespace cuzk::cli {

int run_export_vk(const export_vk_args& a) {
  auto pk = io::read_zkey_file(a.zkey);
  io::write_json_file(a.vk, io::vk_to_json(pk.vk()));
  return 0;
}

}  // namespace cuzk::cli
