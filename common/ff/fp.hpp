// Fp: the 381-bit base field of BLS12-381.
#pragma once

#include "ff/constants.hpp"
#include "ff/mont_field.hpp"

namespace cuzk::ff {
using fp_t = mont_field<fp_params>;
}
