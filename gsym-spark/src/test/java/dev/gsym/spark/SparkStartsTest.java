package dev.gsym.spark;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;

class SparkStartsTest {
  @Test
  void localModeRunsAJob() throws Exception {
    try (SparkSession s = SparkSession.builder().master("local[2]").appName("t").config("spark.ui.enabled", "false").getOrCreate()) {
      assertThat(s.range(0, 1000, 1, 4).selectExpr("sum(id)").first().getLong(0)).isEqualTo(499500L);
    }
  }
}
