import { dictionary } from '../../dictionary.js';
/**
 * Human labels from package slugs (`aws-elastic-container-registry`, `azure-cosmos-db`). The icon packages carry no
 * display names, so words keep the spelling their vendors use; anything not listed is capitalised.
 */
const SPELLING: Record<string, string> = dictionary(Object.fromEntries(
  (
    'AI API APIs AD AMIs ARM AVS B2C CDN CDNs CLI CPU CRD CX DB DDoS DNS EC2 EKS ECS EFS EMR ETL FHIR FSx FTP GPU HPC HSM ' +
    'IAM IDS IoT IP IQ IR KMS ML MQ NAT NFS NLP OS PIM QnA RDS SAP SDK SDKs SIEM SLA SQL SSD SSH SSIS TFS TPU VC VM VMs ' +
    'VMSS VPC VPN VR WAN WAF WFS ' +
    'AppConfig AppFlow AppStream AppSync AutoML BeyondCorp BigQuery BizTalk CloudEndure CloudFormation CloudFront ' +
    'CloudHSM CloudSearch CloudShell CloudTrail CloudWatch CloudTest CodeArtifact CodeBuild CodeCommit CodeDeploy ' +
    'CodeGuru CodePipeline CodeStar CodeWhisperer DataBrew DataSync DeepComposer DeepLens DeepRacer DevOps DevTest ' +
    'DocumentDB DynamoDB ElastiCache EventBridge ExpressLink ExpressRoute FinSpace FleetWise FreeRTOS GameKit GameLift ' +
    'GameSparks GuardDuty HDInsight HealthLake IoT KubeRun MariaDB MediaConnect MediaConvert MediaLive MediaPackage ' +
    'MediaStore MediaTailor MemoryDB MySQL NetApp OpenSearch OpenShift OpenTelemetry OpenZFS ParallelCluster ' +
    'PostgreSQL PowerShell PrivateLink QuickSight RoboMaker RoboRunner SageMaker SendGrid SignalR SiteWise StorSimple ' +
    'TensorFlow TorchServe TwinMaker VMware WorkDocs WorkLink WorkMail WorkSpaces XMesh re:Post'
  )
    .split(' ')
    .map((word) => [word.toLowerCase(), word]),
));

const LOWERCASE = new Set(['and', 'for', 'of', 'on', 'in', 'to', 'the', 'a', 'as', 'with']);

export function titleFromSlug(slug: string, spelling: Record<string, string> = {}): string {
  return slug
    .split(/-+/)
    .filter(Boolean)
    .map((word, index) => {
      const known = spelling[word] ?? SPELLING[word];
      if (known) return known;
      if (index > 0 && LOWERCASE.has(word)) return word;
      return word.charAt(0).toUpperCase() + word.slice(1);
    })
    .join(' ');
}
