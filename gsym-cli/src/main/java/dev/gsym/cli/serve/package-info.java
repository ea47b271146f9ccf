/** {@code gsymutil serve}: gsym-serve's symbolication server on a store of converted modules. */
package dev.gsym.cli.serve;
