// Keeps cuzk_cuda a library with at least one translation unit.
