// Fr: the 255-bit scalar field of BLS12-381 (the group order r).
#pragma once

#include "ff/constants.hpp"
#include "ff/mont_field.hpp"

namespace cuzk::ff {
using fr_t = mont_field<fr_params>;
}
