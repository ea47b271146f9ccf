/** {@code gsymutil stackwalk}: minidump_stackwalk's command line over gsym-stackwalk. */
package dev.gsym.cli.stackwalk;
