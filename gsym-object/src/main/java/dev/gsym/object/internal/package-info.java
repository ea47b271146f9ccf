/** What the object-file readers share and do not export: file mapping. */
package dev.gsym.object.internal;
