import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs the Java salting recipes of seeds 002 and 003 verbatim over the inputs
 * given on stdin. Launched by salt-vectors.py as a single-file program
 * (`java SaltVectors.java`), so nothing is compiled to disk.
 *
 * stdin: first line = bucket counts, comma separated; then one input per line,
 * as hex of its UTF-16 code units (so any Java String can be passed).
 * stdout: tab-separated `kind, input index, buckets, value`; strings are hex
 * of UTF-16 code units.
 */
public class SaltVectors {
    /** Seed 002, class SaltedBigtableWriter, without the Bigtable client. */
    static final class SaltedBigtableWriter {
        private final int numBuckets;

        SaltedBigtableWriter(int numBuckets) {
            this.numBuckets = numBuckets;
        }

        public int computeSalt(String key) {
            try {
                MessageDigest md = MessageDigest.getInstance("MD5");
                byte[] hash = md.digest(key.getBytes("UTF-8"));
                int hashInt = ((hash[0] & 0xFF) << 24) | ((hash[1] & 0xFF) << 16)
                            | ((hash[2] & 0xFF) << 8) | (hash[3] & 0xFF);
                return Math.abs(hashInt % numBuckets);
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        }

        public String saltKey(String logicalKey) {
            int salt = computeSalt(logicalKey);
            return String.format("%02d#%s", salt, logicalKey);
        }
    }

    /** Seed 003, whole-key salting. */
    static String saltWhole(String rowKey, int saltRange) {
        int prefix = rowKey.hashCode() % saltRange;
        String saltedRowKey = prefix + "-" + rowKey;
        return saltedRowKey;
    }

    /** Seed 003, salting on the key without its last `-` component. */
    static String saltPartial(String rowKey, int saltRange) {
        String rowKeyBase = rowKey.substring(0, rowKey.lastIndexOf("-"));
        int prefix = rowKeyBase.hashCode() % saltRange;
        String saltedRowKey = prefix + "-" + rowKey;
        return saltedRowKey;
    }

    static String fromHex(String hex) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < hex.length(); i += 4) sb.append((char) Integer.parseInt(hex.substring(i, i + 4), 16));
        return sb.toString();
    }

    static String toHex(String s) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < s.length(); i++) sb.append(String.format("%04x", (int) s.charAt(i)));
        return sb.toString();
    }

    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII));
        List<Integer> counts = new ArrayList<>();
        for (String n : in.readLine().split(",")) counts.add(Integer.parseInt(n.trim()));
        List<String> inputs = new ArrayList<>();
        for (String line = in.readLine(); line != null; line = in.readLine()) inputs.add(fromHex(line.trim()));

        StringBuilder out = new StringBuilder();
        for (int i = 0; i < inputs.size(); i++) {
            String s = inputs.get(i);
            out.append("hashCode\t").append(i).append("\t0\t").append(s.hashCode()).append('\n');
            for (int n : counts) {
                SaltedBigtableWriter writer = new SaltedBigtableWriter(n);
                out.append("md5-int32\t").append(i).append('\t').append(n).append('\t').append(writer.computeSalt(s)).append('\n');
                out.append("java-string-hashcode-signed\t").append(i).append('\t').append(n).append('\t').append(s.hashCode() % n).append('\n');
                out.append("java-string-hashcode\t").append(i).append('\t').append(n).append('\t').append(Math.floorMod(s.hashCode(), n)).append('\n');
                out.append("seed-002-java\t").append(i).append('\t').append(n).append('\t').append(toHex(writer.saltKey(s))).append('\n');
                out.append("seed-003-whole\t").append(i).append('\t').append(n).append('\t').append(toHex(saltWhole(s, n))).append('\n');
                if (s.lastIndexOf("-") >= 0) {
                    out.append("seed-003-partial\t").append(i).append('\t').append(n).append('\t').append(toHex(saltPartial(s, n))).append('\n');
                }
            }
        }
        System.out.print(out);
    }
}
