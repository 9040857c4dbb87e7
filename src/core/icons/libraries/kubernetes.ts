import kubernetesModule from '@isoflow/isopacks/dist/kubernetes.js';
import type { IconLibraryDefinition } from '../types.js';
import { isopackItems, unwrapIsopack, type IsopackNaming } from './isopacks.js';
import { dictionary } from '../../dictionary.js';

/**
 * The Kubernetes community icon set (github.com/kubernetes/community/icons), from `@isoflow/isopacks`
 * (collection `kubernetes`). Licence: Apache-2.0 or CC-BY-4.0, at the user's choice.
 * The package names icons by kubectl short names; every one gets the resource kind as label.
 */
const NAMES: Record<string, IsopackNaming> = dictionary({
  _k8s_: { label: 'Kubernetes', aliases: ['k8s'] },
  api: { label: 'API Server', aliases: ['kube-apiserver'] },
  'c-c-m': { label: 'Cloud Controller Manager', aliases: ['ccm'] },
  'c-m1': { label: 'Controller Manager', aliases: ['kube-controller-manager'] },
  'c-role': { label: 'Cluster Role', aliases: ['ClusterRole'] },
  cm: { label: 'ConfigMap', aliases: ['cm', 'config map', 'configuration'] },
  'control-plane': { label: 'Control Plane', aliases: ['master'] },
  crb: { label: 'Cluster Role Binding', aliases: ['ClusterRoleBinding', 'crb'] },
  crd: { label: 'Custom Resource Definition', aliases: ['CRD', 'custom resource'] },
  cronjob: { label: 'CronJob', aliases: ['cron job', 'cj', 'scheduled job'] },
  deploy: { label: 'Deployment', aliases: ['deploy'] },
  ds: { label: 'DaemonSet', aliases: ['ds', 'daemon set'] },
  ep: { label: 'Endpoints', aliases: ['ep', 'endpoint'] },
  etcd: { label: 'etcd' },
  group: { label: 'Group' },
  hpa: { label: 'Horizontal Pod Autoscaler', aliases: ['HPA', 'autoscaler'] },
  ing: { label: 'Ingress', aliases: ['ing'] },
  job: { label: 'Job' },
  'k-proxy': { label: 'Kube Proxy', aliases: ['kube-proxy'] },
  kubelet: { label: 'Kubelet' },
  limits: { label: 'Limit Range', aliases: ['LimitRange', 'limits'] },
  netpol: { label: 'Network Policy', aliases: ['NetworkPolicy', 'netpol'] },
  node: { label: 'Node', aliases: ['worker node'] },
  ns: { label: 'Namespace', aliases: ['ns'] },
  pod: { label: 'Pod', aliases: ['po'] },
  psp: { label: 'Pod Security Policy', aliases: ['PSP'] },
  pv: { label: 'Persistent Volume', aliases: ['PV', 'PersistentVolume'] },
  pvc: { label: 'Persistent Volume Claim', aliases: ['PVC', 'PersistentVolumeClaim'] },
  quota: { label: 'Resource Quota', aliases: ['ResourceQuota', 'quota'] },
  rb: { label: 'Role Binding', aliases: ['RoleBinding', 'rb'] },
  role: { label: 'Role' },
  rs: { label: 'ReplicaSet', aliases: ['rs', 'replica set'] },
  sa: { label: 'Service Account', aliases: ['ServiceAccount', 'sa'] },
  sc: { label: 'Storage Class', aliases: ['StorageClass', 'sc'] },
  sched: { label: 'Scheduler', aliases: ['kube-scheduler'] },
  secret: { label: 'Secret' },
  sts: { label: 'StatefulSet', aliases: ['sts', 'stateful set'] },
  svc: { label: 'Service', aliases: ['svc'] },
  user: { label: 'User' },
  vol: { label: 'Volume', aliases: ['vol'] },
});

const collection = unwrapIsopack(kubernetesModule);

export const kubernetesLibrary: IconLibraryDefinition = {
  id: 'kubernetes',
  name: 'Kubernetes',
  vendor: 'kubernetes',
  vendorWords: ['kubernetes', 'k8s'],
  items: () => isopackItems(collection, (id) => NAMES[id.replace(/^k8s-/, '')] ?? NAMES[id]),
};
