/* mingw's main() calls __main (libgcc's constructor runner); freestanding PE tests have none. */
void __main(void) {}
