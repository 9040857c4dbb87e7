/** Hosts named in settings (env values, ConfigMap entries, Helm values): how notations find service-to-service calls. */

/**
 * The first DNS label of every host a setting names: a URL or connection string (credentials and path aside), a
 * `host:port`, a bare name, or a comma-separated list of those. `orders.shop.svc.cluster.local` is `orders`.
 */
export const hostsIn = (value: string): string[] => hostNamesIn(value).map((host) => host.split('.')[0]!);

/** Every host a setting names, whole (`orders.shop.svc.cluster.local`), in lower case, as `hostsIn` reads them. */
export function hostNamesIn(value: string): string[] {
  // Helm templates name hosts around an expression: `{{ .Release.Name }}-rabbitmq` is the rabbitmq service, and so
  // is the format of `{{ printf "%s-rabbitmq" .Release.Name }}` (Immich's chart writes its URLs so).
  return value
    .replace(/\{\{-?\s*printf\s+"([^"]*)".*?\}\}/g, (_whole, format: string) => format.replace(/%[sdv]-?/g, ''))
    .replace(/\{\{.*?\}\}-?/g, '')
    .split(/[,\s]+/)
    .filter(Boolean)
    .flatMap((part) => {
      // A JDBC URL wraps the driver's URL (`jdbc:postgresql://ledger-db:5432/db`): its host is the inner URL's, and
      // SQL Server's properties follow a `;` (`jdbc:sqlserver://mssql:1433;databaseName=orders`).
      const url = /^jdbc:[a-z][a-z0-9+.-]*:\/\//i.test(part) ? part.slice(5).split(';')[0]! : part;
      const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(url) ? url : `tcp://${url}`;
      if (!URL.canParse(withScheme)) return [];
      const host = new URL(withScheme).hostname.toLowerCase();
      return /^[a-z0-9-]+(\.[a-z0-9-]+)*$/.test(host) && !/^\d+(\.\d+)*$/.test(host) ? [host] : [];
    });
}

