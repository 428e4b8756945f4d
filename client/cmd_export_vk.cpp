#include "commands.hpp"
#include "curves/dispatch.hpp"
#include "io/snarkjs_json.hpp"
#include "io/zkey.hpp"

namespace cuzk::cli {

int run_export_vk(const export_vk_args& a) {
  return curves::visit(io::zkey_curve_file(a.zkey), [&](auto curve) {
    using C = decltype(curve);
    const auto pk = io::read_zkey_file<C>(a.zkey);
    io::write_json_file(a.vk, io::vk_to_json<C>(pk.vk()));
    return 0;
  });
}

}  // namespace cuzk::cli
